// `kraftsman census`: simulate every candidate on its own, act on none, count by NodePool (docs/contract.md).
import { runCensus, type CensusResult } from '../../shared/disruption/census.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import type { CommandContext } from './command-context.ts';
import { cents, wallStopwatch } from './plan.ts';
import { disruptingNodes } from './disrupting.ts';
import { table } from './table.ts';
import { censusWorkers } from './workers/start.ts';

export function run(ctx: CommandContext): { json: unknown; table: string } {
  const a = ctx.args;
  const options = passOptions({
    upstream: a.upstream,
    spotToSpot: a.spotToSpot,
    spotToSpotMinTypes: a.spotToSpotMinTypes,
  });
  const claimedByCommands = disruptingNodes(ctx.snapshot);
  const speculation = censusWorkers(ctx, options, claimedByCommands);
  try {
    const result = runCensus(ctx.snapshot, ctx.now, options, wallStopwatch(), {
      claimedByCommands,
      speculation,
    });
    return { json: toJson(result), table: render(result) };
  } finally {
    speculation?.close();
  }
}

function toJson(r: CensusResult): unknown {
  return {
    nodePools: r.nodePools,
    truncated: r.truncated,
    reached: r.reached,
    candidates: r.candidates.map((e) => ({
      node: e.node,
      nodePool: e.nodePool,
      decision: e.decision,
      ...(e.method ? { method: e.method } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
      ...(e.savingsPerHour !== undefined ? { savingsPerHour: cents(e.savingsPerHour) } : {}),
    })),
  };
}

function render(r: CensusResult): string {
  const pools = table(
    ['NODEPOOL', 'DELETE', 'REPLACE', 'NONE', 'EMPTY', 'DRIFTED', 'UNREACHED'],
    Object.entries(r.nodePools).map(([p, c]) =>
      [p, c.delete, c.replace, c.none, c.empty, c.drifted, c.unreached].map(String),
    ),
  );
  const nodes = table(
    ['NODE', 'NODEPOOL', 'DECISION', 'METHOD', 'REASON'],
    r.candidates.map((e) => [e.node, e.nodePool, e.decision, e.method ?? '-', e.reason ?? '-']),
  );
  const cut = r.truncated
    ? `\ncensus budget ran out after ${r.reached} candidates; the rest are unreached\n`
    : '';
  return `${pools}\n\n${nodes}\n${cut}`;
}
