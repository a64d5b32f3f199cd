// Timer port: waiting, for the loops that poll and heartbeat. Paired with the Clock so that a test can run
// both faster than real time (an accelerated clock) and a 14-minute watch window fits in seconds.
export interface Timer {
  /** Resolves after `ms` of this timer's time, or at once (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
