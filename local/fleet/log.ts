// What the functions log and measure in a local fleet: kept in memory (the summary owns stdout), counted by
// level, the warnings and errors kept (bounded) for the report, and printed to stderr with KRAFTSMAN_FLEET_LOG.
import type { Labels, Metrics } from '../../shared/ports/metrics.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';
export interface FleetLogEntry {
  readonly fn: string;
  readonly level: Level;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

const KEEP = 500;
const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export class FleetLog {
  readonly counts: Record<Level, number> = { debug: 0, info: 0, warn: 0, error: 0 };
  readonly kept: FleetLogEntry[] = [];
  constructor(
    private readonly echo?: { level: Level; write: (line: string) => void },
    /** Given every entry as it is logged (a benchmark's instrument: instrument.ts). */
    private readonly tap?: (e: FleetLogEntry) => void,
  ) {}

  /** One function's logger (the InvocationLogger handlers take). */
  logger(fn: string) {
    let keys: Readonly<Record<string, string>> = {};
    const push =
      (level: Level) =>
      (message: string, fields: Record<string, unknown> = {}) =>
        this.push({ fn, level, message, fields: { ...keys, ...fields } });
    return {
      startInvocation: (k: Readonly<Record<string, string>>) => (keys = { ...k }),
      debug: push('debug'),
      info: push('info'),
      warn: push('warn'),
      error: push('error'),
    };
  }

  private push(e: FleetLogEntry): void {
    this.counts[e.level] += 1;
    this.tap?.(e);
    if (RANK[e.level] >= RANK.warn && this.kept.length < KEEP) this.kept.push(e);
    if (this.echo && RANK[e.level] >= RANK[this.echo.level])
      this.echo.write(`${e.level.toUpperCase()} ${e.fn}: ${e.message} ${JSON.stringify(e.fields)}\n`);
  }
}

/** Metrics summed by name and labels: what CloudWatch would hold after the run. */
export class FleetMetrics implements Metrics {
  readonly totals = new Map<string, number>();
  /** `tee` is also given every sample and flush (a benchmark's instrument: instrument.ts). */
  constructor(private readonly tee?: Metrics & { flush(): void }) {}
  private key = (name: string, labels?: Labels) =>
    labels && Object.keys(labels).length
      ? `${name}{${Object.entries(labels)
          .map(([k, v]) => `${k}=${v}`)
          .sort()
          .join(',')}}`
      : name;
  count(name: string, value = 1, labels?: Labels): void {
    this.tee?.count(name, value, labels);
    const k = this.key(name, labels);
    this.totals.set(k, (this.totals.get(k) ?? 0) + value);
  }
  gauge(name: string, value: number, labels?: Labels): void {
    this.tee?.gauge(name, value, labels);
    this.totals.set(this.key(name, labels), value);
  }
  observe(name: string, value: number, labels?: Labels): void {
    this.tee?.observe(name, value, labels);
  }
  flush(): void {
    this.tee?.flush();
  }
  /** The sum of a counter over all its label sets. */
  sum(name: string): number {
    let n = 0;
    for (const [k, v] of this.totals) if (k === name || k.startsWith(`${name}{`)) n += v;
    return n;
  }
}
