// The invariants a run must keep, checked from the emulators' own state (not from what kraftsman believes):
// no instance of the cluster without a NodeClaim, no Node without a live instance, no node left tainted
// `karpenter.sh/disrupted` with no command behind it, no pod lost, no NodePool with more nodes disrupting than
// its budget allows, and no node whose bound pods ask for more than it has.
import type { Ec2World } from '../ec2/world.ts';
import type { GceWorld } from '../gce/world.ts';
import type { KubeApiEmulator, KubeObject } from '../kube-api/index.ts';
import { DISRUPTED_TAINT_KEY } from '../../shared/model/labels.ts';
import { addInto, fromQuantities, type MutableResourceList } from '../../shared/model/resources.ts';

type Node = KubeObject & {
  spec?: { providerID?: string; taints?: { key: string }[] };
  status?: { allocatable?: Record<string, string> };
};
type Claim = KubeObject & { status?: { providerID?: string; nodeName?: string } };
type Pod = KubeObject & {
  spec?: { nodeName?: string; containers?: { resources?: { requests?: Record<string, string> } }[] };
};
type Pool = KubeObject & {
  spec?: { disruption?: { budgets?: { nodes?: string; schedule?: string; reasons?: string[] }[] } };
};

const all = <T>(kube: KubeApiEmulator, kind: string): T[] => kube.store.all(kube.typeOf(kind)) as T[];

/** Live instances tagged for the cluster whose providerID no NodeClaim holds. */
export function orphanInstances(
  kube: KubeApiEmulator,
  ec2: Ec2World,
  gce: GceWorld,
  cluster: string,
): string[] {
  const held = new Set(
    all<Claim>(kube, 'NodeClaim')
      .map((c) => c.status?.providerID)
      .filter(Boolean),
  );
  const aws = [...ec2.instances.values()]
    .filter(
      (i) => (i.state === 'pending' || i.state === 'running') && i.tags['kraftsman.dev/cluster'] === cluster,
    )
    .map((i) => `aws:///${i.zone}/${i.instanceId}`);
  const gcp = [...gce.instances.values()]
    .filter(
      (i) =>
        i.status !== 'TERMINATED' &&
        (i.resource.labels as Record<string, string> | undefined)?.['kraftsman-cluster'] === cluster,
    )
    .map((i) => `gce://${gce.project}/${i.zone}/${i.name}`);
  return [...aws, ...gcp].filter((id) => !held.has(id));
}

const liveAws = (ec2: Ec2World): string[] =>
  [...ec2.instances.values()]
    .filter((i) => i.state === 'pending' || i.state === 'running')
    .map((i) => `aws:///${i.zone}/${i.instanceId}`);
const liveGcp = (gce: GceWorld): string[] =>
  [...gce.instances.values()]
    .filter((i) => i.status !== 'STOPPING' && i.status !== 'TERMINATED')
    .map((i) => `gce://${gce.project}/${i.zone}/${i.name}`);

/**
 * Nodes whose instance is not live (terminated, or never in the cloud): a Node outliving its instance is
 * capacity the scheduler and the cost count but that does not exist. Termination deletes the instance and
 * then the Node in one step, and garbage collection deletes a Node whose instance vanished, so none is left
 * at the end of a run unless its instance went within the last `graceMs` (lifecycle's GC grace) — those are
 * still on their way out. `goneSince` says when the fleet last saw each instance live.
 */
export function nodesWithoutInstance(
  kube: KubeApiEmulator,
  clouds: { ec2: Ec2World; gce: GceWorld },
  recentlyGone: ReadonlySet<string> = new Set(),
): string[] {
  const live = new Set([...liveAws(clouds.ec2), ...liveGcp(clouds.gce)]);
  return all<Node>(kube, 'Node')
    .filter((n) => n.spec?.providerID && !live.has(n.spec.providerID) && !recentlyGone.has(n.spec.providerID))
    .map((n) => String(n.metadata.name));
}

/** Nodes tainted disrupted whose NodeClaim is not being deleted, when no command is in flight. */
export function strandedTaints(kube: KubeApiEmulator, commandsInFlight: number): string[] {
  if (commandsInFlight > 0) return [];
  const deleting = new Set(
    all<Claim>(kube, 'NodeClaim')
      .filter((c) => c.metadata.deletionTimestamp)
      .map((c) => c.status?.nodeName ?? ''),
  );
  return all<Node>(kube, 'Node')
    .filter((n) => n.spec?.taints?.some((t) => t.key === DISRUPTED_TAINT_KEY))
    .filter((n) => !n.metadata.deletionTimestamp && !deleting.has(String(n.metadata.name)))
    .map((n) => String(n.metadata.name));
}

/** Nodes whose bound, running pods request more of some resource than the node's allocatable. */
export function doubleBooked(kube: KubeApiEmulator): string[] {
  const use = new Map<string, MutableResourceList>();
  for (const p of all<Pod>(kube, 'Pod')) {
    const node = p.spec?.nodeName;
    if (!node || p.metadata.deletionTimestamp) continue;
    const u = use.get(node) ?? {};
    for (const c of p.spec?.containers ?? []) addInto(u, fromQuantities(c.resources?.requests));
    use.set(node, u);
  }
  return all<Node>(kube, 'Node')
    .filter((n) => {
      const have = fromQuantities(n.status?.allocatable);
      const u = use.get(String(n.metadata.name)) ?? {};
      return Object.entries(u).some(([r, v]) => have[r] !== undefined && v > have[r]);
    })
    .map((n) => String(n.metadata.name));
}

/** The allowed disruptions of a pool's always-on, all-reasons budgets (Karpenter rounds percentages up). */
function allowed(pool: Pool, nodes: number): number {
  const budgets = (pool.spec?.disruption?.budgets ?? []).filter((b) => !b.schedule && !b.reasons?.length);
  const values = budgets.map((b) => {
    const v = b.nodes ?? '10%';
    return v.endsWith('%') ? Math.ceil((Number(v.slice(0, -1)) / 100) * nodes) : Number(v);
  });
  return values.length ? Math.min(...values) : Number.POSITIVE_INFINITY;
}

/**
 * NodePools with more nodes disrupting than their budgets allow, now. Disrupting = tainted disrupted: graceful
 * disruption taints first, and forceful deletions (expiry, interruption) are not budgeted (docs/mechanisms/candidate-budget.md).
 */
export function budgetOverspends(kube: KubeApiEmulator): string[] {
  const byPool = new Map<string, { total: number; disrupting: number }>();
  for (const n of all<Node>(kube, 'Node')) {
    const pool = (n.metadata.labels as Record<string, string> | undefined)?.['karpenter.sh/nodepool'];
    if (!pool) continue;
    const e = byPool.get(pool) ?? { total: 0, disrupting: 0 };
    e.total += 1;
    if (n.spec?.taints?.some((t) => t.key === DISRUPTED_TAINT_KEY)) e.disrupting += 1;
    byPool.set(pool, e);
  }
  return all<Pool>(kube, 'NodePool')
    .filter((p) => {
      const e = byPool.get(String(p.metadata.name));
      return e !== undefined && e.disrupting > allowed(p, e.total);
    })
    .map((p) => String(p.metadata.name));
}
