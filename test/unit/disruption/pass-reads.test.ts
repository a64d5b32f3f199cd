// Pass reads (docs/mechanisms/pass-reads.md): the scheduling view, the pending backlog and the PDB limits are read
// once per pass and the backlog is copied out per call; upstream mode reads all of them again for every caller.
import { describe, expect, it } from 'vitest';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

const fleet = () =>
  snapshotOf([
    nodePool('default'),
    node('n1', { type: 's-8' }),
    pod('bound', { node: 'n1', cpu: '2' }),
    pod('pending-a', { cpu: '1' }),
    pod('pending-b', { cpu: '1' }),
  ]);
const keys = (pods: readonly { key: string }[]) => pods.map((p) => p.key).sort();

describe('pass reads', () => {
  it('builds the view and the PDB limits once per pass', () => {
    const ctx = passContext(fleet(), NOW, passOptions({}));
    expect(ctx.view()).toBe(ctx.view());
    expect(ctx.pdbs()).toBe(ctx.pdbs());
  });

  it('hands each caller its own copy of the backlog, so one simulation cannot leak pods into the next', () => {
    const ctx = passContext(fleet(), NOW, passOptions({}));
    const view = ctx.view();
    const first = ctx.backlog(view);
    expect(keys(first)).toEqual(['default/pending-a', 'default/pending-b']);
    const bound = ctx.snapshot.objects.pods.find((p) => p.metadata.name === 'bound');
    if (!bound) throw new Error('fixture has no bound pod');
    first.push(view.pendingPod(bound)); // what a simulation does with the candidate's pods
    const second = ctx.backlog(view);
    expect(second).not.toBe(first);
    expect(keys(second)).toEqual(['default/pending-a', 'default/pending-b']);
    // the pods themselves are shared: the per-pod conversion is paid once per pass
    expect(second[0]).toBe(first[0]);
  });

  it('reads everything again for every caller in upstream mode, as Karpenter does per candidate', () => {
    const ctx = passContext(fleet(), NOW, passOptions({ upstream: true }));
    expect(ctx.view()).not.toBe(ctx.view());
    expect(ctx.pdbs()).not.toBe(ctx.pdbs());
    const view = ctx.view();
    expect(keys(ctx.backlog(view))).toEqual(keys(ctx.backlog(view)));
  });
});
