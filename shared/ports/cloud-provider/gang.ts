// A gang launch request and its shapes (docs/mechanisms/gangs.md#mixed-shapes): each member brings its own claim,
// node class and candidate instance types; members that would launch the same way form one shape, and a shape's
// members share one instance type in one zone. The whole gang launches, or none of it does.
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { LaunchOption } from '../../model/launch-options.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { NodeClass } from '../../model/nodeclass.ts';
import type { JoinToken } from '../../model/join-readiness.ts';

/** One member: the claim, with the node class and candidate instance types of its own NodePool. */
export interface GangMember {
  readonly claim: NodeClaim;
  readonly nodeClass: NodeClass;
  readonly instanceTypes: readonly InstanceTypeSpec[];
}

export interface GangLaunchRequest {
  /** Stable name of the gang launch (the PodGroup's launch id): the idempotency key of the whole launch. */
  readonly gang: string;
  readonly members: readonly GangMember[];
  /** The bootstrap token every Kubeadm member joins with (one per launch). */
  readonly join?: JoinToken;
}

/** Members that launch alike: one instance type in one zone for all of them. */
export interface GangShape {
  /** Position of the shape in launch order (gangShapes), stable across retries of the same request. */
  readonly index: number;
  readonly nodeClass: NodeClass;
  readonly instanceTypes: readonly InstanceTypeSpec[];
  /** The members, in request order; the first one's requirements stand for all (they are equal). */
  readonly claims: readonly NodeClaim[];
}

/** A gang whose members all share one node class and one list of candidate types (a single-pool gang). */
export function uniformGang(
  gang: string,
  claims: readonly NodeClaim[],
  nodeClass: NodeClass,
  instanceTypes: readonly InstanceTypeSpec[],
): GangLaunchRequest {
  return { gang, members: claims.map((claim) => ({ claim, nodeClass, instanceTypes })) };
}

/**
 * What decides how a member launches, besides its name: the node class, the instance types offered, and the
 * claim's labels, requirements and taints (they pick the offerings and render the bootstrap script).
 */
function shapeKey(m: GangMember): string {
  const labels = Object.entries(m.claim.metadata.labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([
    m.nodeClass.kind,
    m.nodeClass.metadata.name,
    m.instanceTypes.map((t) => t.name),
    labels,
    m.claim.spec.requirements,
    m.claim.spec.taints ?? [],
    m.claim.spec.startupTaints ?? [],
  ]);
}

/**
 * The gang's shapes in launch order: most members first (ties in the order their first members appear). The
 * largest shape is the likeliest to fall short (it needs that many of one type in one zone), so trying it first
 * makes most shortfalls cost no launch at all, and the shapes after it prefer the zone it landed in.
 */
export function gangShapes(request: GangLaunchRequest): GangShape[] {
  const byKey = new Map<string, { first: GangMember; claims: NodeClaim[] }>();
  for (const m of request.members) {
    const key = shapeKey(m);
    const shape = byKey.get(key);
    if (shape) shape.claims.push(m.claim);
    else byKey.set(key, { first: m, claims: [m.claim] });
  }
  return [...byKey.values()]
    .sort((a, b) => b.claims.length - a.claims.length)
    .map((s, index) => ({
      index,
      nodeClass: s.first.nodeClass,
      instanceTypes: s.first.instanceTypes,
      claims: s.claims,
    }));
}

/**
 * A shape after the first tries the zones the gang already launched in first (its members talk to each other),
 * cheapest first within each group; the claim's own offerings are never widened.
 */
export function preferZones(options: readonly LaunchOption[], zones: ReadonlySet<string>): LaunchOption[] {
  if (zones.size === 0) return [...options];
  return [...options.filter((o) => zones.has(o.zone)), ...options.filter((o) => !zones.has(o.zone))];
}
