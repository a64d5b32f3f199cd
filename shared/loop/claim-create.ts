// One new NodeClaim as provisioning writes every claim, for a batch's pods (provision-batch.ts) and for an atomic
// ProvisioningRequest's (request-launch.ts): the launch record first, under the live lease, then the claim, its
// metric and its log line (docs/functions/provision.md).
import type { NodePool } from '../model/nodepool.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { nodeClaimFor } from '../provisioning/nodeclaims.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { Fence } from '../ports/state-store/records.ts';

export interface ClaimWriter {
  readonly store: StateStore;
  readonly cluster: Cluster;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

export interface ClaimToCreate {
  readonly c: NewClaim;
  readonly pool: NodePool;
  readonly name: string;
  /** The launch unit's id when the claim is a gang's (docs/mechanisms/gangs.md). */
  readonly gang?: string;
  /** Annotations beyond the ones every claim carries (an atomic request's name). */
  readonly annotations?: Readonly<Record<string, string>>;
}

export async function createClaim(
  deps: ClaimWriter,
  fence: Fence,
  { c, pool, name, gang, annotations }: ClaimToCreate,
  log: { readonly message: string; readonly fields: Readonly<Record<string, unknown>> },
): Promise<void> {
  const claim = nodeClaimFor(c, pool, { name, origin: 'provisioning', ...(gang ? { gang } : {}) });
  const written = annotations
    ? {
        ...claim,
        metadata: { ...claim.metadata, annotations: { ...claim.metadata.annotations, ...annotations } },
      }
    : claim;
  // The launch record first, under the live lease: the launcher runs later (asynchronously, maybe after this
  // lease is released) and only completes the record; a claim is never launched without one.
  await deps.store.recordLaunch(fence, {
    claimName: name,
    cloud: c.template.cloud,
    nodePool: c.template.nodePool,
  });
  await deps.cluster.createNodeClaim(written);
  deps.metrics.count(M.nodeClaimsCreatedTotal, 1, {
    [L.nodePool]: c.template.nodePool,
    [L.reason]: 'provisioning',
    [L.cloud]: c.template.cloud,
  });
  deps.logger.info(log.message, { claim: name, ...log.fields, pods: c.pods.length });
}
