// Beyond the fork: a candidate's simulation keeps the backlog pods that can reach the moving pods' capacity,
// directly or through other backlog pods, and drops the rest.
import { describe, expect, it } from 'vitest';
import { backlogReduction } from '../../../shared/disruption/backlog-reduction.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { passView } from '../../../shared/state/scheduling-view.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { catalog, node, nodePool, pod } from '../../fixtures/builders/index.ts';

function setup(extra: Record<string, unknown>[]) {
  const objs = [
    nodePool('default', { requirements: [{ key: 'tier', operator: 'In', values: ['z'] }] }),
    node('c', { pool: 'default', type: 's-4', labels: { tier: 'z' } }),
    node('x', { type: 's-4', labels: { tier: 'x' } }),
    node('y', { type: 's-4', labels: { tier: 'y' } }),
    pod('m', { cpu: '3', node: 'c', spec: { nodeSelector: { tier: 'y' } } }),
    ...extra,
  ];
  const snapshot = buildSnapshot(
    recognize(objs.map((value) => ({ source: 't', value }))).objects,
    buildInstanceTypes(catalog()),
  );
  const view = passView(snapshot);
  const pending = snapshot.objects.pods.filter((p) => !p.spec.nodeName).map((p) => view.pendingPod(p));
  const moving = [view.pendingPod(snapshot.objects.pods.find((p) => p.metadata.name === 'm') as never)];
  return {
    kept: backlogReduction(view)
      .relevant(pending, moving)
      .map((p) => p.key)
      .sort(),
  };
}

describe('backlog reduction', () => {
  it('drops pending pods that can reach none of the capacity the moving pods can use', () => {
    const { kept } = setup([pod('elsewhere', { cpu: '1', spec: { nodeSelector: { tier: 'x' } } })]);
    expect(kept).toEqual([]);
  });

  it('keeps a pod that competes with the moving pods only through another pending pod', () => {
    // b2 fills x, which pushes b1 onto y, where m needed room: dropping b2 would let m fit and propose a delete
    const { kept } = setup([
      pod('b1', {
        cpu: '3500m',
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] },
                ],
              },
            },
          },
        },
      }),
      pod('b2', { cpu: '4', spec: { nodeSelector: { tier: 'x' } } }),
    ]);
    expect(kept).toEqual(['default/b1', 'default/b2']);
  });
});
