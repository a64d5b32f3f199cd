// The claims an atomic ProvisioningRequest opened, recorded in its status (docs/mechanisms/provisioning-requests.md,
// "Refused capacity"): `status.provisioningClassDetails` is the API's place for a class's own details (a map of
// strings of at most 32,768 characters, types.go Detail). A booked request whose claims are all gone had its
// capacity taken away before the booking ended; when a cloud refused it, the request is answered again.
import { ATOMIC_SCALE_UP, type ProvisioningRequest } from '../model/provisioning-request.ts';
import type { ClusterObjects } from '../state/objects.ts';

export const CLAIMS_DETAIL = 'kraftsman.dev/nodeclaims';
const DETAIL_MAX = 32_768;

/** The detail naming the claims (as many whole names as the detail holds). */
export function claimsDetail(names: readonly string[]): Record<string, string> {
  let value = '';
  for (const n of names) {
    const next = value ? `${value},${n}` : n;
    if (next.length > DETAIL_MAX) break;
    value = next;
  }
  return { [CLAIMS_DETAIL]: value };
}

export function recordedClaims(pr: ProvisioningRequest): string[] {
  const details = (pr.status as { provisioningClassDetails?: Record<string, unknown> } | undefined)
    ?.provisioningClassDetails;
  const value = details?.[CLAIMS_DETAIL];
  return typeof value === 'string' && value ? value.split(',') : [];
}

/** An atomic request that opened claims, none of which exists any more. */
export function claimsGone(pr: ProvisioningRequest, objects: ClusterObjects): readonly string[] | undefined {
  if (pr.spec.provisioningClassName !== ATOMIC_SCALE_UP) return undefined;
  const recorded = recordedClaims(pr);
  if (recorded.length === 0) return undefined;
  const live = new Set(objects.nodeClaims.map((c) => c.metadata.name));
  return recorded.some((n) => live.has(n)) ? undefined : recorded;
}
