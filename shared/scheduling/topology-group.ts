// One topology group: pods that share a spread constraint, affinity term or anti-affinity term, the domains
// of its key with their pod counts, and Karpenter's rules for the next allowed domains (topologygroup.go).
import { HOSTNAME } from '../model/labels.ts';
import { Requirement } from './requirement.ts';
import type { LabelPredicate, Labels } from './selector.ts';

export type TopologyType = 'spread' | 'affinity' | 'anti-affinity';

/** The kind of constraint a group stands for, as Karpenter's messages name it. */
export const describeType = (t: TopologyType): string =>
  t === 'spread' ? 'topology spread' : t === 'affinity' ? 'pod affinity' : 'pod anti-affinity';

export interface GroupSpec {
  readonly type: TopologyType;
  readonly key: string;
  readonly hash: string;
  readonly namespaces: ReadonlySet<string>;
  readonly selects: LabelPredicate;
  /** A label every pod `selects` accepts carries, if the selector names one (counts read only those pods). */
  readonly anchor?: { readonly key: string; readonly value: string };
  readonly maxSkew: number;
  readonly minDomains: number | undefined;
  /** Spread only: nodeAffinityPolicy Honor (default) / nodeTaintsPolicy Honor (default Ignore). */
  readonly honorAffinity: boolean;
  readonly honorTaints: boolean;
}

export class TopologyGroup {
  readonly owners = new Set<string>();
  readonly domains = new Map<string, number>();

  /** `id`: the group across Topology instances of one pass (topology.ts groupId). */
  constructor(
    readonly spec: GroupSpec,
    readonly id: string,
  ) {}

  get key(): string {
    return this.spec.key;
  }

  selectsPod(namespace: string, labels: Labels | undefined): boolean {
    return this.spec.namespaces.has(namespace) && this.spec.selects(labels);
  }

  register(domain: string): void {
    if (!this.domains.has(domain)) this.domains.set(domain, 0);
  }

  record(domain: string, delta = 1): void {
    this.domains.set(domain, (this.domains.get(domain) ?? 0) + delta);
  }

  /**
   * Allowed domains for a pod. `podDomains`: what the pod's own node affinity admits on the key; `nodeDomains`:
   * what the node/claim being tried admits; `counted(domain)`: whether the domain counts for this pod (the fork:
   * only domains a NodePool or node the pod can use could supply).
   */
  next(
    selfSelecting: boolean,
    podDomains: Requirement,
    nodeDomains: Requirement,
    counted: (domain: string) => boolean,
  ): Requirement {
    switch (this.spec.type) {
      case 'spread':
        return this.nextSpread(selfSelecting, podDomains, nodeDomains, counted);
      case 'affinity':
        return this.nextAffinity(selfSelecting, podDomains, nodeDomains);
      case 'anti-affinity':
        return this.nextAntiAffinity(podDomains, nodeDomains);
    }
  }

  /**
   * A domain's count; hostnames of claims this run opens are never registered up front (a pass opens many),
   * so an unknown hostname counts as an empty domain.
   */
  private stored(domain: string): number | undefined {
    return this.domains.get(domain) ?? (this.spec.key === HOSTNAME ? 0 : undefined);
  }

  private minCount(podDomains: Requirement, counted: (domain: string) => boolean): number {
    // hostname spread always has an empty domain available: a new node can be created
    if (this.spec.key === HOSTNAME) return 0;
    let min = Number.MAX_SAFE_INTEGER;
    let supported = 0;
    for (const [domain, count] of this.domains) {
      if (!podDomains.has(domain) || !counted(domain)) continue;
      supported++;
      if (count < min) min = count;
    }
    if (this.spec.minDomains !== undefined && supported < this.spec.minDomains) return 0;
    return min === Number.MAX_SAFE_INTEGER ? 0 : min;
  }

  // Karpenter picks the single least-loaded domain that keeps the skew within maxSkew; ties go to the
  // lexically first domain so results do not depend on map order.
  private nextSpread(
    selfSelecting: boolean,
    podDomains: Requirement,
    nodeDomains: Requirement,
    counted: (domain: string) => boolean,
  ): Requirement {
    const min = this.minCount(podDomains, counted);
    let best: string | undefined;
    let bestCount = Number.MAX_SAFE_INTEGER;
    const consider = (domain: string, stored: number): void => {
      const count = selfSelecting ? stored + 1 : stored;
      if (count - min > this.spec.maxSkew) return;
      if (count < bestCount || (count === bestCount && best !== undefined && domain < best)) {
        best = domain;
        bestCount = count;
      }
    };
    if (nodeDomains.operator() === 'In') {
      for (const domain of nodeDomains.values) {
        const stored = this.stored(domain);
        if (stored !== undefined && podDomains.has(domain)) consider(domain, stored);
      }
    } else {
      for (const [domain, stored] of this.domains) {
        if (nodeDomains.has(domain) && podDomains.has(domain)) consider(domain, stored);
      }
    }
    return best === undefined ? Requirement.doesNotExist(this.spec.key) : Requirement.in(this.spec.key, best);
  }

  // When the node already pins the key to a few domains (a claim's own hostname), only those can matter: the
  // result is intersected with the node's requirements anyway, so looking at them alone keeps this O(1).
  private candidates(nodeDomains: Requirement): Iterable<string> {
    return nodeDomains.operator() === 'In' ? nodeDomains.values : this.domains.keys();
  }

  private nextAffinity(
    selfSelecting: boolean,
    podDomains: Requirement,
    nodeDomains: Requirement,
  ): Requirement {
    const options: string[] = [];
    for (const domain of this.candidates(nodeDomains)) {
      const count = this.stored(domain);
      if (count !== undefined && count > 0 && podDomains.has(domain)) options.push(domain);
    }
    if (options.length === 0 && selfSelecting) {
      // Bootstrap a self-selecting group: prefer a domain the node already narrowed to, then any viable one.
      const pinned =
        nodeDomains.operator() === 'In'
          ? [...nodeDomains.values].filter((d) => this.stored(d) !== undefined)
          : [];
      const sorted = [...pinned.sort(), ...[...this.domains.keys()].sort()];
      const both = sorted.find((d) => podDomains.has(d) && nodeDomains.has(d));
      const any = both ?? sorted.find((d) => podDomains.has(d));
      if (any !== undefined) options.push(any);
    }
    return options.length === 0
      ? Requirement.doesNotExist(this.spec.key)
      : Requirement.in(this.spec.key, ...options);
  }

  private nextAntiAffinity(podDomains: Requirement, nodeDomains: Requirement): Requirement {
    const options: string[] = [];
    for (const domain of this.candidates(nodeDomains)) {
      if (this.stored(domain) === 0 && podDomains.has(domain)) options.push(domain);
    }
    return options.length === 0
      ? Requirement.doesNotExist(this.spec.key)
      : Requirement.in(this.spec.key, ...options);
  }
}
