// What the lifecycle controller must do for each NodeClaim, decided from the cluster alone (Karpenter's
// nodeclaim lifecycle: launch → registration → initialization, liveness, expiration). Decisions are data;
// shared/loop/lifecycle.ts acts on them. Registration matches a Node to its claim by providerID.
import { UNREGISTERED_TAINT_KEY } from '../model/labels.ts';
import { parseDuration, parseNillableDuration } from '../model/duration.ts';
import { nodeReady, type Node } from '../model/node.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import type { NodePool } from '../model/nodepool.ts';
import { fromQuantities } from '../model/resources.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { gangCompanions } from './gang-expiry.ts';

/** Per-NodePool registration timeout (GPU and TPU hosts can take 15–25 minutes to join). */
export const REGISTRATION_TIMEOUT_ANNOTATION = 'kraftsman.dev/registration-timeout';

export const TERMINATION_REASONS = [
  'launch_timeout',
  'registration_timeout',
  'never_initialized',
  'expired',
] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

export interface LifecycleTimeouts {
  readonly launchMs: number;
  /** Karpenter's registration TTL: 15 minutes. */
  readonly registrationMs: number;
  readonly initializationMs: number;
}

export type ClaimAction =
  | { readonly kind: 'register'; readonly claim: NodeClaim; readonly node: Node }
  | { readonly kind: 'initialize'; readonly claim: NodeClaim; readonly node: Node }
  | {
      readonly kind: 'terminate';
      readonly claim: NodeClaim;
      readonly node: Node | undefined;
      readonly reason: TerminationReason;
      /** Why, when the reason alone does not say (a gang companion of an expired claim: gang-expiry.ts). */
      readonly detail?: string;
    };

const ageMs = (t: string | undefined, now: Date): number =>
  t ? now.getTime() - Date.parse(t) : Number.NEGATIVE_INFINITY;

export function registrationTimeout(
  pool: NodePool | undefined,
  timeouts: Pick<LifecycleTimeouts, 'registrationMs'>,
): number {
  const text = pool?.metadata.annotations?.[REGISTRATION_TIMEOUT_ANNOTATION];
  const ms = text ? parseDuration(text) : undefined;
  return ms !== undefined && ms > 0 ? ms : timeouts.registrationMs;
}

/**
 * Karpenter's initialization: the Node is Ready, no startup taint (nor the unregistered taint) is left, and
 * every extended resource the claim requested is registered in its allocatable (e.g. the GPU plugin is up).
 */
export function isInitialized(claim: NodeClaim, node: Node): boolean {
  if (!nodeReady(node)) return false;
  const taints = node.spec?.taints ?? [];
  if (taints.some((t) => t.key === UNREGISTERED_TAINT_KEY)) return false;
  for (const s of claim.spec.startupTaints ?? [])
    if (taints.some((t) => t.key === s.key && t.effect === s.effect)) return false;
  const allocatable = fromQuantities(node.status?.allocatable);
  for (const [k, v] of Object.entries(fromQuantities(claim.spec.resources?.requests)))
    if (k.includes('/') && v > 0 && !((allocatable[k] ?? 0) > 0)) return false;
  return true;
}

export function claimActions(objects: ClusterObjects, now: Date, timeouts: LifecycleTimeouts): ClaimAction[] {
  const byProvider = new Map<string, Node>();
  for (const n of objects.nodes) if (n.spec?.providerID) byProvider.set(n.spec.providerID, n);
  const pools = new Map(objects.nodePools.map((p) => [p.metadata.name, p]));
  const out: ClaimAction[] = [];
  for (const claim of objects.nodeClaims) {
    if (claim.metadata.deletionTimestamp) continue;
    const action = decide(claim, byProvider, pools, now, timeouts);
    if (action) out.push(action);
  }
  // a running gang's other nodes expire with it (docs/mechanisms/gangs.md#expiration)
  const expired = out.flatMap((a) => (a.kind === 'terminate' && a.reason === 'expired' ? [a.claim] : []));
  for (const c of gangCompanions(objects, expired)) {
    const action: ClaimAction = {
      kind: 'terminate',
      claim: c.claim,
      node: c.node,
      reason: 'expired',
      detail: c.detail,
    };
    const i = out.findIndex((a) => a.claim === c.claim);
    if (i >= 0) out[i] = action;
    else out.push(action);
  }
  return out;
}

function decide(
  claim: NodeClaim,
  byProvider: ReadonlyMap<string, Node>,
  pools: ReadonlyMap<string, NodePool>,
  now: Date,
  timeouts: LifecycleTimeouts,
): ClaimAction | undefined {
  const age = ageMs(claim.metadata.creationTimestamp, now);
  const pid = claim.status?.providerID;
  const node = pid ? byProvider.get(pid) : undefined;
  const expireAfter = claim.spec.expireAfter ? parseNillableDuration(claim.spec.expireAfter) : undefined;
  if (expireAfter !== undefined && age >= expireAfter)
    return { kind: 'terminate', claim, node, reason: 'expired' };
  if (!pid)
    return age >= timeouts.launchMs
      ? { kind: 'terminate', claim, node, reason: 'launch_timeout' }
      : undefined;
  if (!node) {
    const pool = pools.get(claim.metadata.labels?.['karpenter.sh/nodepool'] ?? '');
    return age >= registrationTimeout(pool, timeouts)
      ? { kind: 'terminate', claim, node, reason: 'registration_timeout' }
      : undefined;
  }
  if (claimCondition(claim, 'Registered') !== true) return { kind: 'register', claim, node };
  if (claimCondition(claim, 'Initialized') === true) return undefined;
  if (isInitialized(claim, node)) return { kind: 'initialize', claim, node };
  const registeredAt = claim.status?.conditions?.find((c) => c.type === 'Registered')?.lastTransitionTime;
  return ageMs(registeredAt, now) >= timeouts.initializationMs
    ? { kind: 'terminate', claim, node, reason: 'never_initialized' }
    : undefined;
}
