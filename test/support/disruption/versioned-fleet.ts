// Versioned disruption fixtures: NodePools, Nodes, pods and initialized NodeClaims carrying the UIDs,
// generations and resource versions the negative cache fingerprints (docs/mechanisms/negative-cache.md),
// and fleets of candidates that each simulate to a no-op. Built on test/unit/disruption/fixtures.ts.
import { node, nodePool, pod, ZONES, type PoolSpec } from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;

/** Sets `metadata.resourceVersion` and returns the object. */
export function versioned(o: Obj, resourceVersion: string): Obj {
  Object.assign(o.metadata as Obj, { resourceVersion });
  return o;
}

/** A NodePool with the UID and generation its candidates' fingerprints include. */
export function versionedPool(name: string, spec: PoolSpec = {}, uid = `uid-${name}`): Obj {
  const p = nodePool(name, spec);
  Object.assign(p.metadata as Obj, { uid, generation: 1 });
  return p;
}

/** An initialized NodeClaim of `pool` bound to Node `name`: a real claim, so its candidate has a fingerprint. */
export function boundClaim(name: string, pool = 'default', resourceVersion = '1'): Obj {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `claim-${name}`,
      resourceVersion,
      creationTimestamp: '2026-09-01T08:00:00Z',
      labels: { 'karpenter.sh/nodepool': pool },
    },
    spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
    status: {
      nodeName: name,
      // Launched (the node fixture's providerID): a claim without one holds the sync gate (sync-gate.md).
      providerID: `aws:///us-east-1a/i-${name}`,
      lastPodEventTime: '2026-09-01T08:05:00Z',
      conditions: [{ type: 'Initialized', status: 'True' }],
    },
  };
}

/** The resource versions of one candidate's Node, pod and NodeClaim. */
export interface Versions {
  readonly node?: string;
  readonly pod?: string;
  readonly claim?: string;
}

export interface CandidateSpec {
  readonly pool?: string;
  readonly type?: string;
  readonly cpu?: string;
  /** The Node's zone; the pod is pinned to it by a nodeSelector. */
  readonly zone?: string;
  readonly versions?: Versions;
}

/**
 * Node `name`, its one pod and its claim, every one versioned. With the defaults — a 3-CPU pod on a 4-CPU node —
 * it simulates to a no-op: the pod has nowhere cheaper to go.
 */
export function candidate(name: string, s: CandidateSpec = {}): Obj[] {
  const v = s.versions ?? {};
  const n = node(name, { type: s.type ?? 's-4', pool: s.pool, zone: s.zone });
  const p = pod(`${name}-app`, {
    node: name,
    cpu: s.cpu ?? '3',
    ...(s.zone ? { nodeSelector: { 'topology.kubernetes.io/zone': s.zone } } : {}),
  });
  return [versioned(n, v.node ?? '1'), versioned(p, v.pod ?? '1'), boundClaim(name, s.pool, v.claim)];
}

export interface NoOpFleetSpec {
  readonly pool?: PoolSpec;
  readonly versions?: Versions;
  /**
   * Zones alternate and pods are pinned to theirs, so any batch needs a node per zone: multi-node finds nothing
   * and every single-node candidate simulates to a no-op.
   */
  readonly zoned?: boolean;
}

/** The `default` pool and `count` no-op candidates n0, n1, …: a fleet a pass walks and finds nothing to do in. */
export function noOpFleet(count: number, s: NoOpFleetSpec = {}): Obj[] {
  const out: Obj[] = [versionedPool('default', s.pool, 'pool-uid')];
  for (let i = 0; i < count; i++) {
    const zone = s.zoned ? ZONES[i % ZONES.length] : undefined;
    out.push(...candidate(`n${i}`, { zone, versions: s.versions }));
  }
  return out;
}
