// bench:bill's arithmetic: a local fleet run's measured use, extrapolated to a 30-day month on serverless.yml's
// schedules and priced line by line (docs/benchmarks.md, "bench:bill", says what each line assumes).
import type { DeployedFunction } from './deployment.ts';
import type { FunctionUse } from './meter.ts';
import type { PriceTable } from './prices.ts';

export const MONTH_MINUTES = 30 * 24 * 60;
/** provision watches 14 minutes (KRAFTSMAN_WATCH_WINDOW) and the every-minute schedule starts the next after it. */
export const PROVISION_WATCH_MINUTES = 14;
/** A start that finds the provisioning lease held returns at once: one failed conditional write (an assumption). */
export const HELD_START_MS = 50;
/** Lambda's own START, END and REPORT lines per invocation (about 360 bytes in us-east-1). */
export const PLATFORM_LOG_BYTES = 360;
/** The interruption queue's event source mapping: 5 long polls of 20 s at a time when the queue is empty. */
export const SQS_IDLE_RECEIVES_PER_MINUTE = 15;
/** The kubeconfig secrets the deployment reads (docs/deploy.md, "Secrets"). */
export const SECRETS = 3;

export interface Measured {
  /** Simulated minutes the run covered. */
  readonly minutes: number;
  readonly uses: ReadonlyMap<string, FunctionUse>;
  readonly metrics: number;
  readonly sqsMessages: number;
}

export interface FunctionLine {
  readonly fn: string;
  readonly memoryMb: number;
  readonly invocations: number;
  readonly meanMs: number;
  readonly gbSeconds: number;
  readonly rru: number;
  readonly wru: number;
  readonly logBytes: number;
  readonly lambdaUsd: number;
  readonly dynamoUsd: number;
  readonly logsUsd: number;
  /** How the month's invocations were counted. */
  readonly basis: string;
}

export interface Bill {
  readonly functions: FunctionLine[];
  readonly sqsRequests: number;
  readonly sqsUsd: number;
  readonly scheduledInvocations: number;
  readonly eventBridgeUsd: number;
  readonly metrics: number;
  readonly metricsUsd: number;
  readonly secretsUsd: number;
  readonly totalUsd: number;
}

const SQS_ALIAS = 'lifecycle:sqs';

/** Which measured time an invocation is billed for: its wall time (what Lambda bills) or its CPU time. */
export type Duration = 'wall' | 'cpu';

/** Per-invocation figures of `u`, times `n` invocations a month. */
function perInvocation(u: FunctionUse, n: number, duration: Duration) {
  const k = u.invocations === 0 ? 0 : n / u.invocations;
  return {
    ms: (duration === 'cpu' ? u.cpuMs : u.billedMs) * k,
    rru: u.rru * k,
    wru: u.wru * k,
    logBytes: (u.logBytes + u.emfBytes) * k + PLATFORM_LOG_BYTES * n,
  };
}

export function monthlyBill(
  m: Measured,
  deployed: readonly DeployedFunction[],
  p: PriceTable,
  duration: Duration = 'wall',
): Bill {
  const perMinute = MONTH_MINUTES / m.minutes;
  const line = (
    d: DeployedFunction,
    fn: string,
    invocations: number,
    use: { ms: number; rru: number; wru: number; logBytes: number },
    basis: string,
  ): FunctionLine => {
    const gbSeconds = (d.memoryMb / 1024) * (use.ms / 1000);
    return {
      fn,
      memoryMb: d.memoryMb,
      invocations,
      meanMs: invocations === 0 ? 0 : use.ms / invocations,
      gbSeconds,
      rru: use.rru,
      wru: use.wru,
      logBytes: use.logBytes,
      lambdaUsd: gbSeconds * p.lambdaPerGbSecond + invocations * p.lambdaPerRequest,
      dynamoUsd: use.rru * p.dynamoPerRru + use.wru * p.dynamoPerWru,
      logsUsd: (use.logBytes / 1e9) * p.logsPerGbIngested,
      basis,
    };
  };
  const lines: FunctionLine[] = [];
  let scheduled = 0;
  for (const d of deployed) {
    const u = m.uses.get(d.name);
    const none = {
      invocations: 0,
      billedMs: 0,
      cpuMs: 0,
      rru: 0,
      wru: 0,
      logBytes: 0,
      emfBytes: 0,
    } as FunctionUse;
    if (d.name === 'provision') {
      // Lambda bills the whole watch: one watching invocation per (window + 1) minutes, the other starts held. Its
      // requests and logs are the measured ones per minute (one fleet firing is one minute of batches).
      const starts = MONTH_MINUTES / (d.everyMinutes ?? 1);
      const watching = MONTH_MINUTES / (PROVISION_WATCH_MINUTES + 1);
      const held = starts - watching;
      const w = u ?? none;
      scheduled += starts;
      lines.push(
        line(
          d,
          d.name,
          starts,
          {
            ms: watching * PROVISION_WATCH_MINUTES * 60_000 + held * HELD_START_MS,
            rru: w.rru * perMinute,
            wru: w.wru * perMinute + held,
            logBytes: (w.logBytes + w.emfBytes) * perMinute + PLATFORM_LOG_BYTES * starts,
          },
          `watch ${PROVISION_WATCH_MINUTES} min of every ${PROVISION_WATCH_MINUTES + 1}; ${Math.round(held)} held starts; requests measured per minute`,
        ),
      );
    } else if (d.everyMinutes !== undefined) {
      const n = MONTH_MINUTES / d.everyMinutes;
      scheduled += n;
      lines.push(
        line(
          d,
          d.name,
          n,
          perInvocation(u ?? none, n, duration),
          `rate(${d.everyMinutes} min), mean of ${u?.invocations ?? 0} measured`,
        ),
      );
    } else {
      const n = (u?.invocations ?? 0) * perMinute;
      lines.push(
        line(
          d,
          d.name,
          n,
          perInvocation(u ?? none, n, duration),
          `${u?.invocations ?? 0} in ${m.minutes} min, scaled`,
        ),
      );
    }
    if (d.name === 'lifecycle') {
      const s = m.uses.get(SQS_ALIAS);
      const n = (s?.invocations ?? 0) * perMinute;
      lines.push(
        line(
          d,
          SQS_ALIAS,
          n,
          perInvocation(s ?? none, n, duration),
          `${s?.invocations ?? 0} SQS batches in ${m.minutes} min, scaled`,
        ),
      );
    }
  }
  const batches = (m.uses.get(SQS_ALIAS)?.invocations ?? 0) * perMinute;
  // Idle long polls, one SendMessage per event (EventBridge's target) and one DeleteMessageBatch per batch.
  const sqsRequests = SQS_IDLE_RECEIVES_PER_MINUTE * MONTH_MINUTES + m.sqsMessages * perMinute + batches;
  const sqsUsd = sqsRequests * p.sqsPerRequest;
  const eventBridgeUsd = scheduled * p.eventBridgeScheduledPerInvocation;
  const metricsUsd = m.metrics * p.perCustomMetricMonth;
  const secretsUsd = SECRETS * p.perSecretMonth;
  const totalUsd =
    lines.reduce((n, l) => n + l.lambdaUsd + l.dynamoUsd + l.logsUsd, 0) +
    sqsUsd +
    eventBridgeUsd +
    metricsUsd +
    secretsUsd;
  return {
    functions: lines,
    sqsRequests,
    sqsUsd,
    scheduledInvocations: scheduled,
    eventBridgeUsd,
    metrics: m.metrics,
    metricsUsd,
    secretsUsd,
    totalUsd,
  };
}
