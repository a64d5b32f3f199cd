// The single-node consolidation commands the core computes for a fleet, as admission and orchestration tests
// hand them over: each candidate simulated alone, as Karpenter's single-node method does, with no walk around it.
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions, type Command } from '../../../shared/disruption/types.ts';
import { NOW, snapshotOf } from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;

/** One command per named candidate, in that order; without names, every candidate in the order they are ranked. */
export function singleNodeCommands(objs: Obj[], names?: readonly string[]): Command[] {
  const snapshot = snapshotOf(objs);
  const ctx = passContext(snapshot, NOW, passOptions({}));
  const { candidates } = buildCandidates({ snapshot, pdbs: ctx.pdbs(), now: NOW });
  const chosen = names
    ? names.map((n) => {
        const c = candidates.find((x) => x.name === n);
        if (!c) throw new Error(`${n} is no candidate`);
        return c;
      })
    : candidates;
  return chosen.map((c) => {
    const o = computeConsolidation(ctx, 'single-node-consolidation', [c]);
    if (o.kind !== 'command') throw new Error(`expected a command for ${c.name}: ${o.detail}`);
    return o.command;
  });
}
