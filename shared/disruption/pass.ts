// One disruption pass over a snapshot (docs/architecture.md, "One consolidation pass", steps 4–5), pure:
// candidates once, then each method in order over the candidates it accepts, with that method's budgets,
// until one yields commands. Returns the commands, why every considered node was passed over, and the pass
// outcome; acting on them is admission's job.
import { budgetMapping } from './budgets.ts';
import { buildCandidates, type Expired } from './candidates.ts';
import { gangIndex } from './gangs.ts';
import type { MethodName } from './types.ts';
import { METHODS } from './methods.ts';
import type { MethodResult, WalkHints } from './method.ts';
import type { CoverageState } from './coverage-cycle.ts';
import {
  mayMarkConsolidated,
  sweepNegativeCache,
  type NegativeCache,
  type NegativeCacheTally,
} from './negative-cache.ts';
import type { PassOutcome } from './metric-names.ts';
import { passContext, type Stage } from './pass-context.ts';
import { markForDeletion } from '../state/mark-for-deletion.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { WalkSpeculation } from './speculation.ts';
import type { Candidate, Command, PassOptions, Skip, Stopwatch } from './types.ts';

export interface PassInputs {
  readonly snapshot: ClusterSnapshot;
  readonly now: Date;
  readonly options: PassOptions;
  readonly stopwatch?: Stopwatch;
  readonly hints?: WalkHints;
  /** Nodes named by an open command: marked for deletion for the whole pass (their pods move, they use budget). */
  readonly claimedByCommands?: ReadonlySet<string>;
  readonly nominated?: ReadonlySet<string>;
  /** Nodes holding a ProvisioningRequest's booked capacity: skipped as `provisioning-request`. */
  readonly booked?: ReadonlySet<string>;
  /** Nodes an invalid object concerns: skipped as `invalid-object`, never candidates. */
  readonly untouchable?: ReadonlySet<string>;
  /** podKeys of pending pods the provisioner found incompatible with every NodePool (StateStore verdicts). */
  readonly verdicts?: ReadonlySet<string>;
  /**
   * Methods still consolidated on this view (Karpenter's IsConsolidated, docs/mechanisms/consolidated-state.md):
   * each is passed over without computing. Drift is never gated.
   */
  readonly consolidated?: ReadonlySet<MethodName>;
  /** Single-node verdicts worked out ahead by other threads (docs/mechanisms/parallel-discovery.md). */
  readonly speculation?: WalkSpeculation;
}

export interface PassResult {
  readonly commands: readonly Command[];
  readonly method: MethodName | undefined;
  readonly skipped: readonly Skip[];
  readonly expired: readonly Expired[];
  readonly candidates: number;
  readonly evaluated: number;
  readonly timedOut: boolean;
  readonly unseenPools: readonly string[];
  readonly timings: Readonly<Record<Stage, number>>;
  readonly outcome: PassOutcome;
  /** What the next pass should start from (persisted through the StateStore by the loop). */
  readonly memory: WalkHints;
  readonly negativeTally: NegativeCacheTally | undefined;
  readonly depth: MethodResult['depth'];
  /** Methods consolidated on this view after the pass: gated ones, and those that marked (markConsolidated). */
  readonly consolidatedMethods: readonly MethodName[];
}

/**
 * The pass's snapshot, context and candidates before any method runs: a discovery worker builds the same ones
 * from the same inputs (docs/mechanisms/parallel-discovery.md).
 */
export function passSetup(inputs: PassInputs) {
  const { now, options } = inputs;
  const snapshot = markForDeletion(inputs.snapshot, inputs.claimedByCommands);
  const ctx = passContext(snapshot, now, options, inputs.stopwatch, inputs.verdicts);
  const set = buildCandidates({
    snapshot,
    pdbs: ctx.pdbs(),
    now,
    claimedByCommands: inputs.claimedByCommands,
    nominated: inputs.nominated,
    booked: inputs.booked,
    untouchable: inputs.untouchable,
    gangs: gangIndex(snapshot),
  });
  for (const e of set.expired) ctx.expired.add(e.node);
  return { snapshot, ctx, set };
}

export function runPass(inputs: PassInputs): PassResult {
  const { now } = inputs;
  const { snapshot, ctx, set } = passSetup(inputs);
  const peers = new Map(set.candidates.map((c) => [c.name, c]));
  const skips = new Map<string, Skip>(set.skipped.map((s) => [s.node, s]));
  const pools = [...snapshot.nodePools.values()].map((v) => v.pool);
  let evaluated = 0;
  let timedOut = false;
  let unseenPools: readonly string[] = inputs.hints?.unseenPools ?? [];
  let coverage: CoverageState | undefined = inputs.hints?.coverage;
  let cache: NegativeCache | undefined = inputs.hints?.negativeCache;
  let walk: MethodResult | undefined;
  let constrainedByBudgets = false;
  let computed = 0;
  const gated: MethodName[] = [];
  const marked: MethodName[] = [];
  for (const method of METHODS) {
    const eligible: Candidate[] = [];
    for (const c of set.candidates) {
      const verdict = method.filter(c);
      if (verdict === true) eligible.push(c);
      else if (verdict !== undefined)
        skips.set(c.name, { node: c.name, reason: verdict, method: method.name });
    }
    if (eligible.length === 0) continue;
    // IsConsolidated: nothing changed since this method last found nothing to do (drift is never gated).
    if (method.name !== 'drift' && inputs.consolidated?.has(method.name)) {
      gated.push(method.name);
      continue;
    }
    computed++;
    // Expired nodes are on their way out, so, like deleting nodes, they consume budget.
    const budgets = budgetMapping(pools, snapshot.nodes, method.reason, now, { disrupting: ctx.expired });
    const out = method.compute(
      ctx,
      eligible,
      budgets,
      {
        unseenPools,
        coverage,
        negativeCache: cache,
        replacementHolds: inputs.hints?.replacementHolds,
        peers,
      },
      inputs.speculation,
    );
    for (const s of out.skipped) skips.set(s.node, { node: s.node, reason: s.reason, method: method.name });
    constrainedByBudgets ||= out.constrainedByBudgets === true;
    evaluated += out.evaluated;
    timedOut ||= out.timedOut;
    if (out.unseenPools) unseenPools = out.unseenPools;
    if (out.coverage) coverage = out.coverage;
    if (out.negativeCache) cache = out.negativeCache;
    if (method.name === 'single-node-consolidation') walk = out;
    if (out.commands.length > 0) return finish(out.commands, method.name);
    // markConsolidated: a method that found nothing, held back by no budget, not cut short, not skipping on a
    // cached verdict (the fork's single-node rule).
    const cached = out.skipped.some((s) => s.reason === 'cached-negative');
    // Nor after holding a candidate off a replace: once the hold ends the same view has a decision to make
    // (docs/mechanisms/replacement-backoff.md).
    const held = out.skipped.some((s) => s.reason === 'replacement-backoff');
    if (method.name !== 'drift' && !out.constrainedByBudgets && !out.timedOut && !cached && !held)
      marked.push(method.name);
  }
  return finish([], undefined);

  function finish(commands: readonly Command[], method: MethodName | undefined): PassResult {
    for (const cmd of commands) for (const c of cmd.candidates) skips.delete(c.name);
    const skipped = [...skips.values()].sort((a, b) => a.node.localeCompare(b.node));
    // The end-of-pass sweep: expiry is checked here and on lookup, never in the background.
    const negativeCache = cache ? sweepNegativeCache(cache, now).cache : undefined;
    const tally = walk?.negativeTally;
    const outcome = passOutcome({
      candidates: set.candidates.length,
      unchanged: commands.length === 0 && computed === 0 && gated.length > 0,
      commands: commands.length,
      timedOut,
      constrainedByBudgets,
      // A candidate held off for a failed replacement was not judged either (docs/mechanisms/replacement-backoff.md).
      skippedOnCache:
        skipped.some((s) => s.reason === 'cached-negative' || s.reason === 'replacement-backoff') ||
        (tally !== undefined && !mayMarkConsolidated(tally)),
    });
    return {
      commands,
      method,
      skipped,
      expired: set.expired,
      candidates: set.candidates.length + set.skipped.length,
      evaluated,
      timedOut,
      unseenPools,
      timings: ctx.timings,
      outcome,
      memory: { unseenPools, coverage, negativeCache },
      negativeTally: tally,
      depth: walk?.depth,
      consolidatedMethods: commands.length > 0 ? gated : [...gated, ...marked],
    };
  }
}

/**
 * How a pass ended. `consolidated` claims the walk looked at everything and found nothing: not after skipping on
 * a cached verdict (docs/mechanisms/negative-cache.md), and not when a budget held a candidate back (Karpenter's
 * SingleNodeConsolidation does not mark itself consolidated then).
 */
export function passOutcome(p: {
  readonly candidates: number;
  /** Every method with candidates was still consolidated on this view: none computed. */
  readonly unchanged?: boolean;
  readonly commands: number;
  readonly timedOut: boolean;
  readonly constrainedByBudgets: boolean;
  readonly skippedOnCache: boolean;
}): PassOutcome {
  if (p.candidates === 0) return 'no-candidates';
  if (p.unchanged) return 'unchanged';
  if (p.commands > 0) return p.timedOut ? 'timed-out-with-proposals' : 'proposed';
  if (p.timedOut) return 'timed-out';
  return p.skippedOnCache || p.constrainedByBudgets ? 'no-proposals' : 'consolidated';
}
