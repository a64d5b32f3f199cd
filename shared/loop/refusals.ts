// A destructive action refused because what it would act on failed an identity or ownership check
// (docs/mechanisms/identity.md): never silent — a metric, a structured log naming the object and the reason,
// and, when a Kubernetes object is involved, a Warning event on it. Never retried as if transient.
import type { Cluster, InvolvedObject } from '../ports/cluster/index.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';

export const REFUSAL_METRIC = 'kraftsman_destructive_actions_refused_total';
export const REFUSAL_EVENT_REASON = 'DestructiveActionRefused';

/** The destructive actions kraftsman takes. */
export const DESTRUCTIVE_ACTIONS = [
  'terminate',
  'drain',
  'evict',
  'delete-node',
  'delete-nodeclaim',
] as const;
export type DestructiveAction = (typeof DESTRUCTIVE_ACTIONS)[number];

/** Why an action was refused: one label value per identity or ownership rule. */
export const REFUSAL_REASONS = [
  /** The providerID's project (GCE) or account (EC2) is not this deployment's. */
  'foreign-project',
  /** The instance lacks this cluster's tag/label. */
  'foreign-cluster',
  /** The instance lacks this deployment's id tag/label. */
  'foreign-deployment',
  /** The instance is not the one the claim or command recorded (another claim's, or a reused name). */
  'instance-mismatch',
  /** The Node or NodeClaim under that name is not the object the command recorded (uid or providerID differ). */
  'identity-mismatch',
  /** A command recorded before identities were recorded: nothing proves its candidate is still the one. */
  'identity-unrecorded',
  /** The view said an object was absent; a direct read found it. */
  'absence-unconfirmed',
  /** An object involved fails validation: its node is untouchable until it parses. */
  'invalid-object',
  /** The providerID cannot be parsed. */
  'malformed-provider-id',
  /** The admit payload is older than a pass interval plus its admission budget: a newer pass superseded it. */
  'stale-payload',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface Refusal {
  readonly action: DestructiveAction;
  readonly reason: RefusalReason;
  /** What a person reads: which object, what did not match. */
  readonly message: string;
  readonly providerId?: string;
  /** The Kubernetes object the action concerned, when there is one: it gets a Warning event. */
  readonly object?: InvolvedObject;
}

export interface RefusalDeps {
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** Absent where no cluster is at hand (a cloud-side sweep): then only the metric and the log. */
  readonly cluster?: Pick<Cluster, 'recordEvent'>;
}

/** Counts, logs and (best effort) records an event; a failed event write is logged, never thrown. */
export async function refuse(deps: RefusalDeps, r: Refusal): Promise<void> {
  deps.metrics.count(REFUSAL_METRIC, 1, { action: r.action, reason: r.reason });
  deps.logger.warn('destructive action refused', {
    action: r.action,
    reason: r.reason,
    message: r.message,
    ...(r.providerId ? { providerID: r.providerId } : {}),
    ...(r.object ? { object: `${r.object.kind}/${r.object.name}`, uid: r.object.uid } : {}),
  });
  if (!r.object || !deps.cluster) return;
  await deps.cluster
    .recordEvent({
      involved: r.object,
      type: 'Warning',
      reason: REFUSAL_EVENT_REASON,
      message: `${r.action} refused (${r.reason}): ${r.message}`,
    })
    .catch((error: unknown) =>
      deps.logger.warn('could not record an event', {
        object: `${r.object?.kind}/${r.object?.name}`,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
}
