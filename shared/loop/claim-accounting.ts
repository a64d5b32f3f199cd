// The accounting of a NodeClaim's end, on every path that ends one (docs/functions/lifecycle.md#observability,
// docs/functions/orchestrate.md#metrics): lifecycle's timeouts, expiration, interruptions and deletions, and
// orchestration's disruption commands. Lifetime and termination-duration histograms share one label set —
// instance type, capacity type, NodePool and a cause from a small vocabulary: `interruption` for every cloud
// interruption kind (the kind itself stays on the claim's termination-cause annotation and on
// karpenter_nodeclaims_disrupted_total's `reason`), the disruption reason a command recorded (`underutilized`,
// `empty`, `drifted`), and lifecycle's own causes (`expired`, `never_initialized`, `launch_timeout`, …).
// Lifetime is split by origin: `provisioning`, or `disruption` for a command's replacement.
import {
  CAPACITY_TYPE,
  INSTANCE_TYPE,
  NODEPOOL,
  TERMINATION_CAUSE,
  TERMINATION_CAUSES,
} from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { DisruptionReason } from '../model/nodepool.ts';
import type { MethodName } from '../disruption/types.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { ORIGIN_ANNOTATION } from '../provisioning/nodeclaims.ts';
import type { Metrics } from '../ports/metrics.ts';

/** The cause label every cloud interruption kind is counted under. */
const INTERRUPTION_CAUSE = 'interruption';

/**
 * Each method's Reason() (shared/disruption/methods.ts), repeated here so that lifecycle's bundle, which imports
 * this file, does not pull in the disruption engine; the type keeps it complete.
 */
const METHOD_REASONS: Readonly<Record<MethodName, DisruptionReason>> = {
  emptiness: 'Empty',
  drift: 'Drifted',
  'multi-node-consolidation': 'Underutilized',
  'single-node-consolidation': 'Underutilized',
};

/** The metric cause of a command's candidates: its reason in snake case, as Karpenter labels it. */
export const commandCause = (method: MethodName): string => METHOD_REASONS[method].toLowerCase();

/** A stamped termination cause as the histograms label it: interruption kinds fold into one. */
export function causeLabel(cause: string): string {
  return (TERMINATION_CAUSES as readonly string[]).includes(cause) || cause === 'interrupted'
    ? INTERRUPTION_CAUSE
    : cause;
}

interface Labelled {
  readonly metadata: {
    readonly labels?: Record<string, string> | undefined;
    readonly annotations?: Record<string, string> | undefined;
  };
}

/** The shared label set of a claim's (or, once the claim is gone, its Node's) end. */
export function endLabels(o: Labelled | undefined, cause: string): Record<string, string> {
  const l = o?.metadata.labels ?? {};
  return {
    [L.nodePool]: l[NODEPOOL] ?? 'unknown',
    [L.instanceType]: l[INSTANCE_TYPE] ?? 'unknown',
    [L.capacityType]: l[CAPACITY_TYPE] ?? 'unknown',
    [L.cause]: causeLabel(cause),
  };
}

/** Creation to now, split by origin; nothing when the creation time is unknown. */
export function observeLifetime(
  metrics: Metrics,
  claim: Labelled & { readonly metadata: { readonly creationTimestamp?: string | undefined } },
  labels: Record<string, string>,
  now: Date,
): void {
  const created = Date.parse(claim.metadata.creationTimestamp ?? '');
  if (!Number.isFinite(created)) return;
  metrics.observe(M.nodeClaimLifetimeSeconds, (now.getTime() - created) / 1000, {
    ...labels,
    [L.origin]: claim.metadata.annotations?.[ORIGIN_ANNOTATION] ?? 'provisioning',
  });
}

/** The start of the termination (drain begun) to now. */
export function observeTermination(
  metrics: Metrics,
  labels: Record<string, string>,
  startedMs: number | undefined,
  now: Date,
): void {
  if (startedMs === undefined || !Number.isFinite(startedMs)) return;
  metrics.observe(M.nodeClaimTerminationDurationSeconds, (now.getTime() - startedMs) / 1000, labels);
}

/**
 * A disruption command's candidate, ended by orchestration (instance terminated, objects deleted): counted
 * as disrupted and terminated under the command's reason (or the interruption stamped on it first), with
 * its lifetime and the time since its drain began. Called once per candidate: a candidate already gone is
 * settled from its remains on later runs, never counted again.
 */
export function recordCommandEnd(
  metrics: Metrics,
  now: Date,
  method: MethodName,
  claim: NodeClaim | undefined,
  node: Node,
  drainingSince: Date,
): void {
  const subject = claim ?? node;
  const reason =
    claim?.metadata.annotations?.[TERMINATION_CAUSE] ??
    node.metadata.annotations?.[TERMINATION_CAUSE] ??
    commandCause(method);
  const labels = endLabels(subject, reason);
  metrics.count(M.nodeClaimsDisruptedTotal, 1, { ...labels, [L.reason]: reason });
  metrics.count(M.nodeClaimsTerminatedTotal, 1, labels);
  observeLifetime(metrics, subject, labels, now);
  observeTermination(metrics, labels, drainingSince.getTime(), now);
}
