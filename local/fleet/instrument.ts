// What a benchmark may watch in a local fleet run (bench:bill): every invocation by function, every log entry and
// every metric sample and flush, without changing what the functions do.
import type { Metrics } from '../../shared/ports/metrics.ts';
import type { InvocationWrap } from './costs.ts';
import type { FleetLogEntry } from './log.ts';

/** A Metrics port the handlers flush at the end of each invocation (as EmfMetrics is). */
export type FlushedMetrics = Metrics & { flush(): void };

export interface FleetInstrument {
  /** Wraps each invocation (scheduled, asynchronous or SQS) of the named function. */
  readonly around?: InvocationWrap;
  /** Given every log entry, at every level. */
  readonly log?: (e: FleetLogEntry) => void;
  /** Given every metric sample and every flush (the handlers flush once per invocation). */
  readonly metrics?: FlushedMetrics;
}
