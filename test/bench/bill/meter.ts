// bench:bill's meter: what each function of a local fleet run used, counted where it happens — invocations and
// their wall time, DynamoDB capacity units as DynamoDB Local reports them, log bytes, EMF documents and metrics.
import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EmfMetrics } from '../../../shared/observability/index.ts';
import type { Labels } from '../../../shared/ports/metrics.ts';
import type { FleetInstrument, FlushedMetrics } from '../../../local/fleet/instrument.ts';
import type { FleetLogEntry } from '../../../local/fleet/log.ts';

/** What one function used over the run. */
export interface FunctionUse {
  invocations: number;
  /** Wall time of its invocations, summed (what Lambda bills, rounded up to the millisecond per invocation). */
  billedMs: number;
  /**
   * CPU time (user + system) of this process while its invocations ran: the function and the in-process emulators
   * serving it (DynamoDB Local is another process). On a loaded machine wall time is mostly waiting for a core.
   */
  cpuMs: number;
  dynamoRequests: number;
  rru: number;
  wru: number;
  /** Failed conditional writes: DynamoDB charges them but returns no ConsumedCapacity; counted 1 WRU per item. */
  conditionalFailures: number;
  /** Bytes of INFO-and-above JSON log lines, as Powertools Logger writes them. */
  logBytes: number;
  /** Bytes of the EMF documents its flushes wrote (they are log lines too). */
  emfBytes: number;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const RANK = { debug: 0, info: 1, warn: 2, error: 3 } as const;
/** The deployment's log level (KRAFTSMAN_LOG_LEVEL's default): DEBUG lines are not written. */
const WRITTEN_FROM = RANK.info;
/** The timestamp and X-Ray id Powertools puts on every line, as they would read in Lambda. */
const LINE_STAMP = {
  timestamp: '2026-12-08T00:00:00.000Z',
  xray_trace_id: '1-67550000-0123456789abcdef01234567',
};

const empty = (): FunctionUse => ({
  invocations: 0,
  billedMs: 0,
  cpuMs: 0,
  dynamoRequests: 0,
  rru: 0,
  wru: 0,
  conditionalFailures: 0,
  logBytes: 0,
  emfBytes: 0,
});

type Capacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
const unitsOf = (c: Capacity | Capacity[] | undefined): number =>
  c === undefined ? 0 : Array.isArray(c) ? c.reduce((n, x) => n + unitsOf(x), 0) : (c.CapacityUnits ?? 0);

/** How many items a write request names: a failed conditional write is charged per item. */
function itemsOf(op: string, input: Record<string, unknown>): number {
  if (op === 'TransactWriteItems') return (input.TransactItems as unknown[] | undefined)?.length ?? 1;
  if (op === 'BatchWriteItem')
    return Object.values((input.RequestItems as Record<string, unknown[]>) ?? {}).reduce(
      (n, r) => n + r.length,
      0,
    );
  return 1;
}

export class BillMeter implements FleetInstrument {
  readonly uses = new Map<string, FunctionUse>();
  /** Every distinct metric (namespace, name and dimension values): each is one CloudWatch custom metric. */
  readonly metricKeys = new Set<string>();
  /** DynamoDB responses that carried no ConsumedCapacity (a server that does not report it). */
  unreported = 0;
  private readonly current = new AsyncLocalStorage<string>();
  private readonly emf = new Map<string, EmfMetrics>();

  constructor(
    private readonly cluster: string,
    private readonly namespace = 'kraftsman',
  ) {}

  use(fn: string): FunctionUse {
    let u = this.uses.get(fn);
    if (!u) this.uses.set(fn, (u = empty()));
    return u;
  }

  /** The function whose invocation is running in this async context (none: the fleet's own work). */
  running(): string | undefined {
    return this.current.getStore();
  }

  readonly around = async <T>(fn: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    try {
      return await this.current.run(fn, run);
    } finally {
      const u = this.use(fn);
      const cpu = process.cpuUsage(cpu0);
      u.invocations += 1;
      u.billedMs += Math.ceil(performance.now() - t0);
      u.cpuMs += Math.ceil((cpu.user + cpu.system) / 1000);
    }
  };

  readonly log = (e: FleetLogEntry): void => {
    if (RANK[e.level] < WRITTEN_FROM) return;
    const line = JSON.stringify({
      level: e.level.toUpperCase(),
      message: e.message,
      sampling_rate: 0,
      service: e.fn,
      ...LINE_STAMP,
      cluster: this.cluster,
      ...e.fields,
    });
    this.use(this.running() ?? e.fn).logBytes += Buffer.byteLength(line) + 1;
  };

  /** EMF metrics per function, as each function's observability builds them, flushed into a counting sink. */
  readonly metrics: FlushedMetrics = {
    count: (name: string, value?: number, labels?: Labels) => this.emfOf()?.count(name, value, labels),
    gauge: (name: string, value: number, labels?: Labels) => this.emfOf()?.gauge(name, value, labels),
    observe: (name: string, value: number, labels?: Labels) => this.emfOf()?.observe(name, value, labels),
    flush: () => this.emfOf()?.flush(),
  };

  private emfOf(): EmfMetrics | undefined {
    const fn = this.running();
    if (fn === undefined) return undefined;
    let m = this.emf.get(fn);
    if (!m)
      this.emf.set(
        fn,
        (m = new EmfMetrics({
          namespace: this.namespace,
          serviceName: fn,
          defaultDimensions: { cluster: this.cluster },
          sink: (line) => this.document(fn, line),
        })),
      );
    return m;
  }

  /** One EMF document: its bytes, and each metric × dimension set it declares. */
  document(fn: string, line: string): void {
    this.use(fn).emfBytes += Buffer.byteLength(line) + 1;
    const doc = JSON.parse(line) as Record<string, unknown> & {
      _aws: {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
      };
    };
    for (const d of doc._aws.CloudWatchMetrics)
      for (const dims of d.Dimensions)
        for (const m of d.Metrics)
          this.metricKeys.add(
            JSON.stringify([d.Namespace, m.Name, dims.map((k) => [k, doc[k]] as const).sort()]),
          );
  }

  /**
   * Counts every DynamoDB request a function makes, at the SDK's `send`: it asks for ReturnConsumedCapacity TOTAL
   * and adds up what the server reports. Returns the function that restores `send`.
   */
  meterDynamo(): () => void {
    const proto = DynamoDBClient.prototype as unknown as {
      send: (command: unknown, ...rest: unknown[]) => Promise<unknown>;
    };
    const original = proto.send;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const meter = this;
    proto.send = function (this: unknown, command: unknown, ...rest: unknown[]) {
      const fn = meter.running();
      const op = (command as { constructor: { name: string } }).constructor.name.replace(/Command$/, '');
      const input = (command as { input: Record<string, unknown> }).input;
      const counted = fn !== undefined && (READS.has(op) || WRITES.has(op));
      if (counted) input.ReturnConsumedCapacity ??= 'TOTAL';
      const sent = original.call(this, command, ...rest);
      if (!counted) return sent;
      const u = meter.use(fn);
      u.dynamoRequests += 1;
      return sent.then(
        (out) => {
          const c = (out as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
          if (c === undefined) meter.unreported += 1;
          if (READS.has(op)) u.rru += unitsOf(c);
          else u.wru += unitsOf(c);
          return out;
        },
        (err: unknown) => {
          const name = (err as { name?: string }).name;
          if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') {
            u.conditionalFailures += 1;
            u.wru += itemsOf(op, input);
          }
          throw err;
        },
      );
    };
    return () => {
      proto.send = original;
    };
  }
}
