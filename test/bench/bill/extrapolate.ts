// bench:bill at a size it did not run: each line's monthly quantities fitted as a + b × nodes through two measured
// sizes of the same fleet, then priced again. Printed as an extrapolation, never as a measurement.
import type { Bill, FunctionLine } from './month.ts';
import type { PriceTable } from './prices.ts';

/** The value at `n` of the line through (n1, y1) and (n2, y2); never below zero. */
export const linear = (n1: number, y1: number, n2: number, y2: number, n: number): number =>
  Math.max(0, y1 + ((y2 - y1) / (n2 - n1)) * (n - n1));

export function extrapolateBill(
  small: { nodes: number; bill: Bill },
  large: { nodes: number; bill: Bill },
  nodes: number,
  p: PriceTable,
): Bill {
  if (small.nodes === large.nodes)
    throw new Error(`bench:bill: extrapolating needs two sizes, got ${small.nodes} twice`);
  const at = (a: number, b: number) => linear(small.nodes, a, large.nodes, b, nodes);
  const functions: FunctionLine[] = large.bill.functions.map((l) => {
    const s = small.bill.functions.find((x) => x.fn === l.fn) ?? l;
    const invocations = at(s.invocations, l.invocations);
    const gbSeconds = at(s.gbSeconds, l.gbSeconds);
    const rru = at(s.rru, l.rru);
    const wru = at(s.wru, l.wru);
    const logBytes = at(s.logBytes, l.logBytes);
    return {
      ...l,
      invocations,
      meanMs: invocations === 0 ? 0 : (gbSeconds / (l.memoryMb / 1024) / invocations) * 1000,
      gbSeconds,
      rru,
      wru,
      logBytes,
      lambdaUsd: gbSeconds * p.lambdaPerGbSecond + invocations * p.lambdaPerRequest,
      dynamoUsd: rru * p.dynamoPerRru + wru * p.dynamoPerWru,
      logsUsd: (logBytes / 1e9) * p.logsPerGbIngested,
      basis: `EXTRAPOLATED from ${small.nodes} and ${large.nodes} nodes (linear in nodes)`,
    };
  });
  const sqsRequests = at(small.bill.sqsRequests, large.bill.sqsRequests);
  const metrics = Math.round(at(small.bill.metrics, large.bill.metrics));
  const sqsUsd = sqsRequests * p.sqsPerRequest;
  const metricsUsd = metrics * p.perCustomMetricMonth;
  const { scheduledInvocations, eventBridgeUsd, secretsUsd } = large.bill;
  const totalUsd =
    functions.reduce((n, l) => n + l.lambdaUsd + l.dynamoUsd + l.logsUsd, 0) +
    sqsUsd +
    eventBridgeUsd +
    metricsUsd +
    secretsUsd;
  return {
    functions,
    sqsRequests,
    sqsUsd,
    scheduledInvocations,
    eventBridgeUsd,
    metrics,
    metricsUsd,
    secretsUsd,
    totalUsd,
  };
}
