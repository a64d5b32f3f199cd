// `kraftsman plan`: what one disruption pass would do with the snapshot (docs/contract.md); a dry run.
import { performance } from 'node:perf_hooks';
import { runPass, type PassResult } from '../../shared/disruption/pass.ts';
import { simulateProvisioning } from '../../shared/provisioning/simulate.ts';
import {
  decisionOf,
  passOptions,
  savingsOf,
  type Command,
  type Stopwatch,
} from '../../shared/disruption/types.ts';
import type { CommandContext } from './command-context.ts';
import { disruptingNodes } from './disrupting.ts';
import { table } from './table.ts';
import { walkWorkers } from './workers/start.ts';

export const cents = (x: number): number => Math.round(x * 1e6) / 1e6;

export function wallStopwatch(): Stopwatch {
  const start = performance.now();
  return { elapsedMs: () => performance.now() - start };
}

export function run(ctx: CommandContext): { json: unknown; table: string } {
  const a = ctx.args;
  const options = passOptions({
    upstream: a.upstream,
    maxCommands: a.maxCommands,
    spotToSpot: a.spotToSpot,
    spotToSpotMinTypes: a.spotToSpotMinTypes,
    skipUnchangedNegatives: a.skipUnchangedNegatives,
  });
  const claimedByCommands = disruptingNodes(ctx.snapshot);
  const speculation = walkWorkers(ctx, options, claimedByCommands);
  try {
    const result = runPass({
      snapshot: ctx.snapshot,
      now: ctx.now,
      options,
      stopwatch: wallStopwatch(),
      nominated: nominatedNodes(ctx),
      claimedByCommands,
      speculation,
    });
    return { json: toJson(result), table: render(result) };
  } finally {
    speculation?.close();
  }
}

function commandJson(c: Command): unknown {
  return {
    method: c.method,
    decision: decisionOf(c),
    candidates: c.candidates.map((x) => x.name),
    replacements: c.replacements.map((r) => ({
      nodePool: r.nodePool,
      cloud: r.cloud,
      instanceTypes: r.instanceTypes,
      capacityType: r.capacityType,
      price: cents(r.price),
      requirements: r.requirements,
    })),
    savingsPerHour: cents(savingsOf(c)),
    // A drift command says why its node drifted (Karpenter's reason: NodePoolDrifted, RequirementsDrifted, …).
    ...(c.method === 'drift' ? { reason: c.candidates[0]?.drift?.reason ?? 'Drifted' } : {}),
  };
}

/**
 * The nodes provisioning would nominate for the snapshot's pending pods (what `simulate` places on existing
 * nodes): Karpenter's provisioner runs beside disruption, and a nominated node is no candidate (its candidate
 * filter: "state node is nominated for a pending pod"), so `plan` never deletes a node `simulate` fills.
 */
function nominatedNodes(ctx: CommandContext): ReadonlySet<string> {
  const { pods } = simulateProvisioning(ctx.snapshot, { upstream: ctx.args.upstream });
  return new Set(pods.flatMap((p) => (p.result === 'existing' ? [p.node] : [])));
}

export function toJson(r: PassResult): unknown {
  return {
    commands: r.commands.map(commandJson),
    skipped: r.skipped,
    pass: { candidates: r.candidates, evaluated: r.evaluated, timedOut: r.timedOut },
    expired: r.expired,
  };
}

function render(r: PassResult): string {
  const commands = table(
    ['METHOD', 'DECISION', 'CANDIDATES', 'REPLACEMENT', '$/H SAVED'],
    r.commands.map((c) => [
      c.method,
      decisionOf(c),
      c.candidates.map((x) => x.name).join(','),
      c.replacements
        .map((x) => `${x.nodePool}:${x.instanceTypes[0] ?? '?'} ${x.capacityType} ${cents(x.price)}`)
        .join(', ') || '-',
      cents(savingsOf(c)).toFixed(4),
    ]),
  );
  const skipped = table(
    ['NODE', 'SKIPPED BECAUSE'],
    r.skipped.map((s) => [s.node, s.reason]),
  );
  const expired = r.expired.length
    ? `\n\nexpired (deleted by expiration, outside budgets): ${r.expired.map((e) => e.node).join(', ')}`
    : '';
  return `${commands}\n\n${skipped}\n\npass: ${r.candidates} candidates, ${r.evaluated} evaluated${r.timedOut ? ', timed out' : ''}${expired}\n`;
}
