// The cluster-state gauges a Karpenter dashboard reads (docs/observability.md "Metrics"), from one snapshot:
// NodePool usage and limits, nodes' allocatable and total pod/daemon requests, pods by phase, node count, and
// kraftsman's nodes and cost per hour by pool and capacity type. Karpenter publishes the node and pod gauges per
// node and per pod; as CloudWatch metrics (each dimension set is a billed metric) they are summed per NodePool
// (nodes) and per phase (pods) instead — the same totals a Karpenter dashboard sums them into.
import { fromQuantities, type ResourceList } from '../model/resources.ts';
import { isOwnedByDaemonSet } from './pods.ts';
import type { ClusterSnapshot, StateNode } from './snapshot.ts';

export const CLUSTER_METRICS = {
  /** gauge {nodepool, resource_type}: the capacity of the pool's nodes (Karpenter's NodePool status.resources). */
  nodePoolUsage: 'karpenter_nodepools_usage',
  /** gauge {nodepool, resource_type}: spec.limits. */
  nodePoolLimit: 'karpenter_nodepools_limit',
  /** gauge {nodepool, resource_type}: summed over the pool's nodes. */
  nodesAllocatable: 'karpenter_nodes_allocatable',
  /** gauge {nodepool, resource_type}: requests of the pods bound to the pool's nodes, DaemonSet pods excluded. */
  nodesTotalPodRequests: 'karpenter_nodes_total_pod_requests',
  /** gauge {nodepool, resource_type}: requests of the DaemonSet pods bound to the pool's nodes. */
  nodesTotalDaemonRequests: 'karpenter_nodes_total_daemon_requests',
  /** gauge {phase}: pods by phase (Karpenter: one series per pod). */
  podsState: 'karpenter_pods_state',
  /** gauge: the nodes cluster state holds. */
  nodeCount: 'karpenter_cluster_state_node_count',
  /** gauge {nodepool, capacity_type}: nodes kraftsman manages. */
  nodes: 'kraftsman_nodes',
  /** gauge {nodepool, capacity_type}: their summed price, dollars per hour (nodes of unknown price count 0). */
  costPerHour: 'kraftsman_nodes_cost_dollars_per_hour',
} as const;

export interface MetricSample {
  readonly name: string;
  readonly value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/** Resource lists are in milli-units; metrics speak base units (cores, bytes, GPUs), as Karpenter's do. */
const base = (milli: number): number => milli / 1000;

const capacityOf = (n: StateNode): ResourceList => n.instanceType?.capacity ?? n.allocatable;

function add(into: Map<string, Record<string, number>>, key: string, list: ResourceList): void {
  const sum = into.get(key) ?? {};
  for (const r in list) sum[r] = (sum[r] ?? 0) + (list[r] as number);
  into.set(key, sum);
}

/**
 * The resources published per pool: cpu, memory, pods and extended resources (GPUs, Neuron, ...). Each
 * (metric, pool, resource) is a billed CloudWatch metric, so the ones no capacity dashboard reads are left out.
 */
const published = (r: string): boolean =>
  r !== 'ephemeral-storage' && !r.startsWith('hugepages-') && !r.startsWith('attachable-volumes-');

function perResource(name: string, sums: Map<string, Record<string, number>>): MetricSample[] {
  const out: MetricSample[] = [];
  for (const [nodepool, sum] of sums)
    for (const r of Object.keys(sum).filter(published).sort())
      out.push({ name, value: base(sum[r] as number), labels: { nodepool, resource_type: r } });
  return out;
}

export function clusterStateMetrics(snapshot: ClusterSnapshot): MetricSample[] {
  const usage = new Map<string, Record<string, number>>();
  const allocatable = new Map<string, Record<string, number>>();
  const podRequests = new Map<string, Record<string, number>>();
  const daemonRequests = new Map<string, Record<string, number>>();
  const nodes = new Map<string, { nodes: number; cost: number; labels: Record<string, string> }>();
  for (const n of snapshot.nodes) {
    if (!n.managed || n.nodePool === undefined || n.node === undefined) continue;
    const pool = n.nodePool;
    add(usage, pool, capacityOf(n));
    add(allocatable, pool, n.allocatable);
    // every resource the node offers is published, 0 when nothing asks for it (a pool of idle nodes reads 0)
    const daemon: Record<string, number> = {};
    const own: Record<string, number> = {};
    for (const r in n.allocatable) {
      daemon[r] = n.daemonRequests[r] ?? 0;
      own[r] = (n.podRequests[r] ?? 0) - daemon[r];
    }
    add(podRequests, pool, own);
    add(daemonRequests, pool, daemon);
    const capacityType = n.capacityType ?? 'unknown';
    const key = `${pool}\u0000${capacityType}`;
    const entry = nodes.get(key) ?? {
      nodes: 0,
      cost: 0,
      labels: { nodepool: pool, capacity_type: capacityType },
    };
    entry.nodes += 1;
    entry.cost += n.price ?? 0;
    nodes.set(key, entry);
  }
  const out: MetricSample[] = [
    ...perResource(CLUSTER_METRICS.nodePoolUsage, usage),
    ...perResource(CLUSTER_METRICS.nodesAllocatable, allocatable),
    ...perResource(CLUSTER_METRICS.nodesTotalPodRequests, podRequests),
    ...perResource(CLUSTER_METRICS.nodesTotalDaemonRequests, daemonRequests),
  ];
  for (const view of snapshot.nodePools.values()) {
    const limits = view.pool.spec.limits;
    if (!limits) continue;
    const list = fromQuantities(limits);
    for (const r of Object.keys(list).filter(published).sort())
      out.push({
        name: CLUSTER_METRICS.nodePoolLimit,
        value: base(list[r] as number),
        labels: { nodepool: view.name, resource_type: r },
      });
  }
  const phases = new Map<string, number>();
  for (const p of snapshot.objects.pods) {
    if (isOwnedByDaemonSet(p) && !p.spec.nodeName) continue; // a DaemonSet pod waiting for its node: not demand
    const phase = p.status?.phase ?? 'Pending';
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
  }
  for (const [phase, count] of [...phases].sort())
    out.push({ name: CLUSTER_METRICS.podsState, value: count, labels: { phase } });
  out.push({ name: CLUSTER_METRICS.nodeCount, value: snapshot.nodes.length, labels: {} });
  for (const e of [...nodes.values()].sort((a, b) =>
    `${a.labels.nodepool}/${a.labels.capacity_type}`.localeCompare(
      `${b.labels.nodepool}/${b.labels.capacity_type}`,
    ),
  )) {
    out.push({ name: CLUSTER_METRICS.nodes, value: e.nodes, labels: e.labels });
    out.push({ name: CLUSTER_METRICS.costPerHour, value: e.cost, labels: e.labels });
  }
  return out;
}
