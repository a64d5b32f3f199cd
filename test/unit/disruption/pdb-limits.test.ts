// PodDisruptionBudget limits (Karpenter's pdb.Limits, the eviction API's rules and the disruption controller's
// arithmetic): which PDBs block evicting a pod, and which pods no eviction will ever move.
import { describe, expect, it } from 'vitest';
import { pdbLimits, podReady } from '../../../shared/disruption/pdb-limits.ts';
import { podSchema, type Pod } from '../../../shared/model/pod.ts';
import { pdbSchema, type PodDisruptionBudget } from '../../../shared/model/workloads.ts';
import { pod } from './fixtures.ts';

type Obj = Record<string, unknown>;

/** A running pod of `app` in `namespace`, Ready unless `ready` says otherwise (undefined: no Ready condition). */
function appPod(
  name: string,
  o: { app?: string; namespace?: string; ready?: boolean | 'none'; meta?: Obj; status?: Obj } = {},
): Pod {
  const raw = pod(name, { node: 'n', labels: { app: o.app ?? 'web' }, namespace: o.namespace ?? 'default' });
  const conditions =
    o.ready === 'none' ? [] : [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }];
  return podSchema.parse({
    ...raw,
    metadata: { ...(raw.metadata as Obj), ...o.meta },
    status: { ...(raw.status as Obj), conditions, ...o.status },
  });
}

function budget(
  name: string,
  spec: Obj,
  o: { status?: Obj; namespace?: string | null } = {},
): PodDisruptionBudget {
  return pdbSchema.parse({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, ...(o.namespace === null ? {} : { namespace: o.namespace ?? 'default' }) },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    ...(o.status ? { status: o.status } : {}),
  });
}

const three = [appPod('web-0'), appPod('web-1'), appPod('web-2')];
const blockers = (pdbs: PodDisruptionBudget[], pods: Pod[], target: Pod = pods[0]!) =>
  pdbLimits(pdbs, pods).blockers(target);

describe('PDB limits from status.disruptionsAllowed', () => {
  it('blocks a selected pod when the PDB allows 0 disruptions, naming it namespace/name', () => {
    expect(
      blockers([budget('web', { maxUnavailable: 1 }, { status: { disruptionsAllowed: 0 } })], three),
    ).toEqual(['default/web']);
  });

  it('lets the pod go when the status allows a disruption, whatever the spec says', () => {
    const pdb = budget('web', { minAvailable: 3 }, { status: { disruptionsAllowed: 1 } });
    expect(blockers([pdb], three)).toEqual([]);
  });
});

describe('PDB limits computed from the spec when the status is absent', () => {
  it('allows healthy − minAvailable', () => {
    expect(blockers([budget('web', { minAvailable: 3 })], three)).toEqual(['default/web']);
    expect(blockers([budget('web', { minAvailable: 2 })], three)).toEqual([]);
  });

  it('allows healthy − (expected − maxUnavailable)', () => {
    expect(blockers([budget('web', { maxUnavailable: 1 })], three)).toEqual([]);
    const oneDown = [appPod('web-0'), appPod('web-1'), appPod('web-2', { ready: false })];
    expect(blockers([budget('web', { maxUnavailable: 1 })], oneDown)).toEqual(['default/web']);
  });

  it('rounds a percentage up, for minAvailable and for maxUnavailable', () => {
    const twoOfThree = [appPod('web-0'), appPod('web-1'), appPod('web-2', { ready: false })];
    // minAvailable 50% of 3 = 2 (not 1): 2 healthy allow 0.
    expect(blockers([budget('web', { minAvailable: '50%' })], twoOfThree)).toEqual(['default/web']);
    // maxUnavailable 50% of 3 = 2 (not 1): 1 must stay healthy, 2 healthy allow 1.
    expect(blockers([budget('web', { maxUnavailable: '50%' })], twoOfThree)).toEqual([]);
    expect(blockers([budget('web', { minAvailable: '100%' })], three)).toEqual(['default/web']);
    expect(blockers([budget('web', { minAvailable: '60%' })], three)).toEqual([]);
  });

  it('never lets the allowance go below 0, nor the desired count below 0', () => {
    const twoDown = [appPod('web-0'), appPod('web-1', { ready: false }), appPod('web-2', { ready: false })];
    expect(blockers([budget('web', { minAvailable: 2 })], twoDown)).toEqual(['default/web']);
    expect(blockers([budget('web', { maxUnavailable: 5 })], twoDown)).toEqual([]);
  });

  it('counts only active pods of its namespace that its selector matches', () => {
    const gone = { deletionTimestamp: '2026-09-01T11:00:00Z' };
    const counted = [
      appPod('web-0'),
      appPod('web-1', { meta: gone }),
      appPod('web-2', { status: { phase: 'Succeeded' } }),
      appPod('web-3', { namespace: 'other' }),
      appPod('api-0', { app: 'api' }),
    ];
    // Only web-0 counts: minAvailable 1 leaves nothing to disrupt.
    expect(blockers([budget('web', { minAvailable: 1 })], counted)).toEqual(['default/web']);
    expect(blockers([budget('web', { minAvailable: 0 })], counted)).toEqual([]);
  });

  it('allows every healthy pod when it sets neither minAvailable nor maxUnavailable', () => {
    expect(blockers([budget('web', {})], three)).toEqual([]);
    expect(blockers([budget('web', {})], [appPod('web-0', { ready: false })])).toEqual(['default/web']);
  });
});

describe('which PDBs select a pod', () => {
  it('selects pods of its own namespace only; a PDB without a namespace is in default', () => {
    const zero = { status: { disruptionsAllowed: 0 } };
    expect(blockers([budget('web', {}, { ...zero, namespace: 'other' })], three)).toEqual([]);
    expect(blockers([budget('web', {}, { ...zero, namespace: null })], three)).toEqual(['default/web']);
    const elsewhere = appPod('web-9', { namespace: 'other' });
    expect(blockers([budget('web', {}, { ...zero, namespace: 'other' })], [elsewhere])).toEqual([
      'other/web',
    ]);
  });

  it('counts a pod without a namespace as one of the default namespace', () => {
    const bare = (name: string) => {
      const p = appPod(name);
      return podSchema.parse({ ...p, metadata: { ...p.metadata, namespace: undefined } });
    };
    // Both pods count (minAvailable 1 of 2 healthy allows 1), and the PDB selects them.
    expect(blockers([budget('web', { minAvailable: 1 })], [bare('a'), bare('b')])).toEqual([]);
    expect(blockers([budget('web', { minAvailable: 2 })], [bare('a'), bare('b')])).toEqual(['default/web']);
  });

  it('selects by its selector: an empty one selects the whole namespace, an absent one nothing', () => {
    const zero = { status: { disruptionsAllowed: 0 } };
    const api = appPod('api-0', { app: 'api' });
    expect(blockers([budget('web', {}, zero)], [api])).toEqual([]);
    expect(blockers([budget('all', { selector: {} }, zero)], [api])).toEqual(['default/all']);
    const none = pdbSchema.parse({ ...budget('none', {}, zero), spec: {} });
    expect(blockers([none], [api])).toEqual([]);
  });

  it('blocks a pod that two PDBs select, even when both allow a disruption (the eviction API refuses it)', () => {
    const both = [budget('one', { maxUnavailable: 1 }), budget('two', { maxUnavailable: 1 })];
    expect(blockers(both, three)).toEqual(['default/one', 'default/two']);
    expect(pdbLimits(both, three).fullyBlocked(three[0]!)).toBe(true);
  });
});

describe('unhealthyPodEvictionPolicy AlwaysAllow', () => {
  const zero = { status: { disruptionsAllowed: 0 } };
  it('does not block an unready pod, but still blocks a ready one', () => {
    const pdb = budget('web', { minAvailable: 3, unhealthyPodEvictionPolicy: 'AlwaysAllow' }, zero);
    expect(blockers([pdb], [appPod('sick', { ready: false })])).toEqual([]);
    expect(pdbLimits([pdb], []).fullyBlocked(appPod('sick', { ready: false }))).toBe(false);
    expect(blockers([pdb], [appPod('fine')])).toEqual(['default/web']);
  });

  it('is off by default and under IfHealthyBudget', () => {
    const sick = appPod('sick', { ready: false });
    expect(blockers([budget('web', {}, zero)], [sick])).toEqual(['default/web']);
    const ifHealthy = budget('web', { unhealthyPodEvictionPolicy: 'IfHealthyBudget' }, zero);
    expect(blockers([ifHealthy], [sick])).toEqual(['default/web']);
  });
});

describe('fully blocking PDBs (Karpenter isFullyBlocking)', () => {
  const fully = (spec: Obj) => pdbLimits([budget('web', spec)], three).fullyBlocked(three[0]!);
  it('are maxUnavailable 0 or 0%, or minAvailable 100%', () => {
    expect(fully({ maxUnavailable: 0 })).toBe(true);
    expect(fully({ maxUnavailable: '0%' })).toBe(true);
    expect(fully({ minAvailable: '100%' })).toBe(true);
  });

  it('are no other budget, even one that allows nothing now', () => {
    expect(fully({ maxUnavailable: 1 })).toBe(false);
    expect(fully({ maxUnavailable: '10%' })).toBe(false);
    expect(fully({ minAvailable: 3 })).toBe(false);
    expect(fully({ minAvailable: '99%' })).toBe(false);
    expect(fully({})).toBe(false);
  });

  it('block only the pods they select', () => {
    const limits = pdbLimits([budget('web', { maxUnavailable: 0 })], three);
    expect(limits.fullyBlocked(appPod('api-0', { app: 'api' }))).toBe(false);
  });
});

describe('podReady', () => {
  it('reads the Ready condition among the others, and the Running phase when there is none', () => {
    const scheduledNotReady = appPod('s', {
      status: {
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      },
    });
    expect(podReady(scheduledNotReady)).toBe(false);
    const noConditions = podSchema.parse({ ...pod('e', { node: 'n' }), status: { phase: 'Running' } });
    expect(podReady(noConditions)).toBe(true);
    const noStatus = podSchema.parse({ ...pod('f', { node: 'n' }), status: undefined });
    expect(podReady(noStatus)).toBe(false);
    expect(podReady(appPod('a'))).toBe(true);
    expect(podReady(appPod('b', { ready: false }))).toBe(false);
    expect(podReady(appPod('c', { ready: 'none' }))).toBe(true);
    expect(podReady(appPod('d', { ready: 'none', status: { phase: 'Pending' } }))).toBe(false);
  });
});
