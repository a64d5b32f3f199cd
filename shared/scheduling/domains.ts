// The domain universe per topology key, remembering who can supply each domain: which NodePools (by name)
// and which existing nodes. The fork's fix: a pod counts only the domains it can reach
// (docs/mechanisms/per-pool-domains.md); upstream mode counts every domain any pool or node offers.
import type { Taint, Toleration } from '../model/meta.ts';
import type { Requirements } from './requirement-set.ts';
import { untolerated } from './taints.ts';

export interface DomainSupplier {
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
  /** NodePools may satisfy well-known keys they do not name; existing nodes must carry the label. */
  readonly isPool: boolean;
  /** For a NodePool: the requirements of the instance types through which it supplies this domain. */
  readonly instanceTypes?: readonly Requirements[];
}

/** What a simulation's topology reads of the universe. */
export interface Domains {
  domains(key: string): Iterable<string>;
  suppliers(key: string, domain: string): readonly DomainSupplier[];
}

const NONE: readonly DomainSupplier[] = [];

export class DomainUniverse implements Domains {
  private readonly byKey = new Map<string, Map<string, DomainSupplier[]>>();
  /** Where each supplier is listed (key, domain), so a view without some suppliers finds their domains. */
  private readonly places = new Map<DomainSupplier, [string, string][]>();
  // Who is already listed per domain: a zone of a 1,000-node cluster has hundreds of node suppliers, and every
  // simulation builds its universe anew, so a linear duplicate check made that quadratic per simulation.
  private readonly listed = new Map<DomainSupplier[], Set<DomainSupplier>>();

  add(key: string, domain: string, supplier: DomainSupplier): void {
    let domains = this.byKey.get(key);
    if (!domains) this.byKey.set(key, (domains = new Map()));
    const list = domains.get(domain);
    if (!list) {
      const fresh = [supplier];
      domains.set(domain, fresh);
      this.listed.set(fresh, new Set(fresh));
    } else {
      const seen = this.listed.get(list);
      if (seen?.has(supplier)) return;
      seen?.add(supplier);
      list.push(supplier);
    }
    const at = this.places.get(supplier);
    if (at) at.push([key, domain]);
    else this.places.set(supplier, [[key, domain]]);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /**
   * This universe limited to `keys` and without the `excluded` suppliers (a simulation's left-out nodes), as if
   * they had never been added — or undefined when that would reorder domains (an excluded supplier listed first
   * in a domain others still supply), which only a universe built afresh reproduces.
   */
  without(keys: ReadonlySet<string>, excluded: ReadonlySet<DomainSupplier>): Domains | undefined {
    const surviving = new Map<string, Map<string, readonly DomainSupplier[]>>();
    for (const s of excluded) {
      for (const [key, domain] of this.places.get(s) ?? []) {
        if (!keys.has(key)) continue;
        let byDomain = surviving.get(key);
        if (!byDomain) surviving.set(key, (byDomain = new Map()));
        if (byDomain.has(domain)) continue;
        const list = this.suppliers(key, domain);
        const left = list.filter((x) => !excluded.has(x));
        if (left.length > 0 && excluded.has(list[0] as DomainSupplier)) return undefined;
        byDomain.set(domain, left);
      }
    }
    return {
      domains: (key) => {
        if (!keys.has(key)) return [];
        const gone = surviving.get(key);
        const all = this.domains(key);
        return gone ? [...all].filter((d) => gone.get(d)?.length !== 0) : all;
      },
      suppliers: (key, domain) =>
        keys.has(key) ? (surviving.get(key)?.get(domain) ?? this.suppliers(key, domain)) : NONE,
    };
  }

  domains(key: string): IterableIterator<string> {
    return (this.byKey.get(key) ?? new Map<string, DomainSupplier[]>()).keys();
  }

  suppliers(key: string, domain: string): readonly DomainSupplier[] {
    return this.byKey.get(key)?.get(domain) ?? [];
  }
}

/** Whether a pod with these strict requirements and tolerations could use the supplier (labels, and taints if honoured). */
export function canUse(
  supplier: DomainSupplier,
  podRequirements: Requirements,
  tolerations: readonly Toleration[],
  honorTaints: boolean,
  allowUndefined: ReadonlySet<string>,
): boolean {
  if (honorTaints && untolerated(supplier.taints, tolerations)) return false;
  if (!supplier.requirements.compatible(podRequirements, supplier.isPool ? allowUndefined : new Set()))
    return false;
  // a pool reaches the domain for this pod only through a type the pod could run on (judged by labels)
  return (
    !supplier.instanceTypes || supplier.instanceTypes.some((it) => it.conflict(podRequirements) === undefined)
  );
}
