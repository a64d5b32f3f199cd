// Speculation: verdicts worked out ahead of a walk or a census, by other threads, as plain data
// (docs/mechanisms/parallel-discovery.md). Injected like the Stopwatch (the core may not import shared/ports);
// synchronous, so the core's walk stays synchronous and pure.
import type { CensusEntry } from './census.ts';
import type { Candidate, SkipReason } from './types.ts';

/**
 * One candidate's simulation as a worker saw it, assuming the candidates named in `held` gone. Only a no-op is
 * trusted (and only with the same held set); a command or a timeout is simulated again by the consumer.
 */
export type SpeculativeVerdict = {
  readonly candidate: string;
  readonly held: readonly string[];
} & (
  | { readonly kind: 'no-op'; readonly reason: SkipReason; readonly detail: string }
  | { readonly kind: 'command-found' }
  | { readonly kind: 'timed-out' }
);

export interface Speculation<V> {
  /**
   * The candidates in the order the consumer will visit them, and its gate: false when the consumer would pass
   * a candidate over without simulating it. The gate is monotone (once false, false for the rest of the walk).
   */
  begin(ordered: readonly Candidate[], gate: (c: Candidate) => boolean): void;
  /** The verdict worked out for `candidate` (blocking until it is in), or undefined: simulate it here. */
  outcome(candidate: Candidate, held: readonly Candidate[]): V | undefined;
}

/** The single-node walk's speculation. */
export type WalkSpeculation = Speculation<SpeculativeVerdict>;
/** The census's: candidates are independent there, so a worker's entry is the entry. */
export type CensusSpeculation = Speculation<CensusEntry>;
