// An atomic ProvisioningRequest whose capacity a cloud refused after it was answered (docs/mechanisms/
// provisioning-requests.md, "Refused capacity"): its claims' launch records say whether the launch failed, and
// whether for capacity on one cloud recently enough (Karpenter's ICE window) to try the request whole elsewhere.
import type { Cloud } from '../model/labels.ts';
import { refusedFor } from '../provisioning/gang-failover.ts';
import type { StateStore } from '../ports/state-store/index.ts';

export interface Refusal {
  /** The cloud that refused it for capacity within the ICE window: the request is tried off it first. */
  readonly avoid?: Cloud;
  /** The launcher's error, for the event. */
  readonly error: string;
}

/** The refusal the request's gone claims stand for, or undefined when none of their launches failed. */
export async function refusalOf(
  store: Pick<StateStore, 'getLaunch'>,
  cluster: string,
  claims: readonly string[],
  now: Date,
): Promise<Refusal | undefined> {
  for (const name of claims) {
    const r = await store.getLaunch(cluster, name);
    if (r?.status !== 'failed') continue;
    const avoid = refusedFor(
      { cloud: r.cloud, status: r.status, updatedAt: r.updatedAt, ...(r.error ? { error: r.error } : {}) },
      now,
    );
    return { ...(avoid ? { avoid } : {}), error: r.error ?? 'launch failed' };
  }
  return undefined;
}
