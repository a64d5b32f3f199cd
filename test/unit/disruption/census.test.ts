// The census: every managed, initialized node simulated on its own, none acted on, counts by NodePool.
import { describe, expect, it } from 'vitest';
import { runCensus } from '../../../shared/disruption/census.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { node, NOW, nodePool, pdb, pod, snapshotOf } from './fixtures.ts';

describe('census', () => {
  const fleet = [
    nodePool('default', { budgets: [{ nodes: '0' }] }),
    nodePool('gpu'),
    node('empty', { type: 's-2' }),
    node('big', { type: 's-16' }),
    pod('big-app', { node: 'big', cpu: '3' }),
    node('full', { type: 's-4' }),
    pod('full-app', { node: 'full', cpu: '3' }),
    node('guarded', { type: 's-4', pool: 'gpu' }),
    pod('guarded-app', { node: 'guarded', cpu: '3' }),
    pdb('pdb', 'guarded-app', { minAvailable: 1 }),
  ];
  const r = runCensus(snapshotOf(fleet), NOW, passOptions({}));

  it('decides each node on its own, ignoring budgets', () => {
    expect(r.candidates.map((c) => [c.node, c.decision, c.reason ?? c.method])).toEqual([
      ['big', 'replace', 'single-node-consolidation'],
      ['empty', 'delete', 'emptiness'],
      ['full', 'delete', 'single-node-consolidation'], // its pod fits on big, which stays in this census
      ['guarded', 'none', 'pdb-blocked'],
    ]);
  });

  it('counts decisions by NodePool, emptiness as a share of delete', () => {
    expect(r.nodePools).toEqual({
      default: { delete: 2, replace: 1, none: 0, empty: 1, drifted: 0, unreached: 0 },
      gpu: { delete: 0, replace: 0, none: 1, empty: 0, drifted: 0, unreached: 0 },
    });
  });

  it('adds up each decision to the candidates listed with it, whatever method decided them', () => {
    // issue 35: an empty node the census deletes is a delete of its NodePool, as the candidate list says
    for (const [pool, counts] of Object.entries(r.nodePools))
      for (const decision of ['delete', 'replace', 'none'] as const)
        expect(counts[decision], `${pool} ${decision}`).toBe(
          r.candidates.filter((c) => c.nodePool === pool && c.decision === decision).length,
        );
  });
});
