// The topology of one scheduling run: groups for the pending pods' spread constraints and (anti-)affinity
// terms, inverse anti-affinity groups from pods that carry required anti-affinity, existing pods counted
// into their domains, and AddRequirements/Record as Karpenter's Topology does them.
import type { Taint } from '../model/meta.ts';
import type { Journal } from './journal.ts';
import type { Domains } from './domains.ts';
import type { PodState } from './pod-state.ts';
import { Requirement } from './requirement.ts';
import type { Requirements } from './requirement-set.ts';
import type { Labels } from './selector.ts';
import { relevantInverse, type BoundInverse } from './inverse-relevance.ts';
import { describeType, TopologyGroup, type GroupSpec } from './topology-group.ts';
import { boundInverseGroups, countBound, filterMatches } from './topology-bound.ts';
import { countedFor, type ReachCache } from './topology-reach.ts';
import { excludedHostnames, selectionShape, withSelecting } from './topology-selection.ts';
import { ownSpecs, type Filter } from './topology-specs.ts';
import type { BoundPod, TopologyOptions, TopologyPod, TopologyShare } from './topology-types.ts';

export type { BoundPod, TopologyOptions, TopologyPod, TopologyShare } from './topology-types.ts';

/** A group across Topology instances of one pass: its kind and spec hash (docs/mechanisms/delta-simulation.md). */
export const groupId = (inverse: boolean, hash: string): string => `${inverse ? 'i' : 'g'}\u0000${hash}`;

/** Told about every count a placement records (+1) and its rollback removes (-1), with the placed pod's key. */
export type CountObserver = (podKey: string, group: string, domain: string, delta: number) => void;

export class Topology {
  /** The delta simulation's base records its counts as its placements go (absent: nothing is told). */
  onCount: CountObserver | undefined;
  private readonly groups = new Map<string, TopologyGroup>();
  private readonly inverse = new Map<string, TopologyGroup>();
  /** Every group by its id (groupId). */
  private readonly ids = new Map<string, TopologyGroup>();
  private readonly filters = new Map<TopologyGroup, Filter>();
  private readonly owned = new Map<string, TopologyGroup[]>();
  private readonly selecting = new Map<string, TopologyGroup[]>();
  private readonly inverseSelecting = new Map<string, TopologyGroup[]>();
  /** The groups and inverse groups selecting a namespace and label set (shared, never mutated). */
  private readonly selectionByShape = new Map<string, { sel: TopologyGroup[]; inv: TopologyGroup[] }>();
  private readonly reach: ReachCache = new Map();
  /** The pending pods by key, built when a derived run first asks (docs/mechanisms/delta-simulation.md). */
  private infos: Map<string, TopologyPod> | undefined;

  /** What this run's pending pods need of the bound inverse groups, and their own inverse terms (a template's). */
  private readonly needed: readonly BoundInverse[];
  private readonly terms: readonly { readonly owner: string; readonly spec: GroupSpec }[];
  /** With a template: this run's groups the template does not have (they may select its pods). */
  private readonly added: { readonly groups: TopologyGroup[]; readonly inverse: TopologyGroup[] } | undefined;

  /**
   * `template`: a topology of the same pass (same namespaces, bound pods and options) over other pending pods,
   * before any placement; this run then covers its pods and `pending` together, as one built over both would,
   * but reads each template pod's groups from the template when first asked instead of deriving them for every
   * pod up front (docs/mechanisms/delta-simulation.md, "Its cost"). Counts and domains are this run's own.
   */
  constructor(
    private readonly universe: Domains,
    private readonly namespaces: ReadonlyMap<string, Labels>,
    private readonly bound: readonly BoundPod[],
    private readonly pending: readonly PodState[],
    private readonly options: TopologyOptions,
    private readonly journal: Journal,
    private readonly share?: TopologyShare,
    private readonly template?: Topology,
  ) {
    if (template && template.namespaces !== namespaces)
      throw new Error('a topology template must come from the same pass (its namespaces differ)');
    if (template)
      for (const g of template.groups.values()) this.groupFor(this.groups, g.spec, template.filters.get(g));
    for (const p of pending) this.own(p);
    const terms: { owner: string; spec: GroupSpec }[] = [...(template?.terms ?? [])];
    for (const p of pending)
      for (const spec of ownSpecs(p, namespaces).inverse) terms.push({ owner: p.key, spec });
    this.terms = terms;
    const needed = relevantInverse(
      boundInverseGroups(this.bound, namespaces, share?.boundInverse),
      pending,
      new Set(terms.map((t) => t.spec.hash)),
      share,
    );
    // the template's pods need what they needed there: a group is needed when any pending pod needs it
    if (template) {
      const have = new Set(needed.map((n) => n.spec.hash));
      for (const n of template.needed) if (!have.has(n.spec.hash)) needed.push(n);
    }
    this.needed = needed;
    for (const { spec, owners } of needed) {
      const g = this.inverseGroupOf(spec);
      for (const o of owners) g.owners.add(o);
    }
    for (const { owner, spec } of terms) this.inverseGroupOf(spec).owners.add(owner);
    for (const g of this.inverse.values()) this.countExisting(g, true);
    if (template) {
      const inherited = template.ids;
      const fresh = (gs: Iterable<TopologyGroup>) => [...gs].filter((g) => !inherited.has(g.id));
      this.added = { groups: fresh(this.groups.values()), inverse: fresh(this.inverse.values()) };
    }
    for (const p of pending) this.indexSelecting(p.info);
  }

  /** Re-derives the groups a pod owns after one of its preferences was relaxed. */
  update(pod: PodState): void {
    this.memo = undefined;
    for (const g of this.ownedOf(pod.key)) g.owners.delete(pod.key);
    this.own(pod);
    this.indexSelecting(pod.info);
  }

  /** Requirements the pod's topology adds on a node with `nodeRequirements` and `taints`, or a reason it cannot go there. */
  addRequirements(
    pod: PodState,
    taints: readonly Taint[],
    nodeRequirements: Requirements,
  ): Requirements | string {
    const owned = this.ownedOf(pod.key);
    const inverse = this.inverseSelectingOf(pod.key);
    if (owned.length === 0 && inverse.length === 0) return nodeRequirements;
    let result: Requirements | undefined;
    for (const g of owned.length ? (inverse.length ? [...owned, ...inverse] : owned) : inverse) {
      if (inverse.includes(g) && !this.filterMatches(g, taints, nodeRequirements)) continue;
      const honorAffinity = g.spec.type !== 'spread' || g.spec.honorAffinity;
      const podDomains =
        honorAffinity && pod.strictRequirements.has(g.key)
          ? pod.strictRequirements.get(g.key)
          : Requirement.exists(g.key);
      const nodeDomains = (result ?? nodeRequirements).has(g.key)
        ? (result ?? nodeRequirements).get(g.key)
        : Requirement.exists(g.key);
      const counted = this.countedFor(pod, g);
      const domains = g.next(
        g.selectsPod(pod.info.namespace, pod.info.labels),
        podDomains,
        nodeDomains,
        counted,
      );
      if (domains.size() === 0) {
        // kept cheap: most failures are trial placements whose message nobody reads
        return `unsatisfiable topology constraint for ${describeType(g.spec.type)}, key=${g.key}`;
      }
      result ??= nodeRequirements.copy();
      result.add(domains);
    }
    return result ?? nodeRequirements;
  }

  /** Hostnames the pod can certainly not join right now (a pre-filter: topology-selection.ts). */
  excludedHostnames(pod: PodState): ReadonlySet<string> | undefined {
    const filtered = (g: TopologyGroup) => this.filters.has(g);
    return excludedHostnames(pod, this.ownedOf(pod.key), this.inverseSelectingOf(pod.key), filtered);
  }

  /** Records a placed pod in every group that counts it. */
  record(pod: TopologyPod, taints: readonly Taint[], requirements: Requirements): void {
    for (const g of this.selectingOf(pod.key)) {
      if (!this.filterMatches(g, taints, requirements)) continue;
      const domains = requirements.get(g.key);
      if (g.spec.type === 'anti-affinity') {
        if (!domains.complement) for (const d of domains.values) this.bump(g, d, pod.key);
      } else {
        const single = domains.single();
        if (single !== undefined) this.bump(g, single, pod.key);
      }
    }
    for (const g of this.inverse.values()) {
      if (!g.owners.has(pod.key)) continue;
      const domains = requirements.get(g.key);
      if (!domains.complement) for (const d of domains.values) this.bump(g, d, pod.key);
    }
  }

  private bump(g: TopologyGroup, domain: string, pod: string): void {
    g.record(domain);
    const observer = this.onCount;
    if (!observer) {
      this.journal.push(() => g.record(domain, -1));
      return;
    }
    const id = g.id;
    observer(pod, id, domain, 1);
    this.journal.push(() => {
      g.record(domain, -1);
      observer(pod, id, domain, -1);
    });
  }

  // What the delta simulation reads and adjusts to hold a run's counts at a queue place without running it
  // (docs/mechanisms/delta-simulation.md): the groups by id, each pod's groups, and a count set from outside.

  /** Every group of this run: its id and its key. */
  *groupKeys(): IterableIterator<[string, string]> {
    for (const g of this.groups.values()) yield [g.id, g.key];
    for (const g of this.inverse.values()) yield [g.id, g.key];
  }

  /** A group's domain counts (registered domains included, at 0), or undefined when this run has no such group. */
  countsOf(id: string): ReadonlyMap<string, number> | undefined {
    return this.byId(id)?.domains;
  }

  /** Ids of the groups whose counts decide where the pod may go: those it owns and inverse groups selecting it. */
  deciding(podKey: string): readonly string[] {
    // a template pod not asked for yet decides by the template's groups and this run's own inverse groups that
    // select it: no need to inherit it
    const t = this.uninherited(podKey);
    return t
      ? withSelecting(t.template.remembered(podKey).deciding, t.added.inverse, t.info)
      : this.decidingNow(podKey);
  }

  private decidingNow(podKey: string): string[] {
    const out: string[] = [];
    for (const g of this.ownedOf(podKey)) out.push(g.id);
    for (const g of this.inverseSelectingOf(podKey)) out.push(g.id);
    return out;
  }

  /** Ids of the groups that may count the pod once placed: groups selecting it and inverse groups it owns. */
  counting(podKey: string): readonly string[] {
    // a template pod not asked for yet: the template's, and this run's own groups that select it (a template pod
    // owns none of the inverse groups only this run has)
    const t = this.uninherited(podKey);
    return t
      ? withSelecting(t.template.remembered(podKey).counting, t.added.groups, t.info)
      : this.countingNow(podKey);
  }

  private countingNow(podKey: string): string[] {
    const out: string[] = [];
    for (const g of this.selectingOf(podKey)) out.push(g.id);
    for (const g of this.inverse.values()) if (g.owners.has(podKey)) out.push(g.id);
    return out;
  }

  /** A template pod this run has not inherited yet, with what answers for it. */
  private uninherited(
    podKey: string,
  ): { template: Topology; added: NonNullable<Topology['added']>; info: TopologyPod } | undefined {
    if (!this.template || !this.added || this.owned.has(podKey)) return undefined;
    const info = this.template.pendingInfo(podKey);
    return info && { template: this.template, added: this.added, info };
  }

  private memo: Map<string, { deciding: readonly string[]; counting: readonly string[] }> | undefined;

  /** A pod's deciding and counting ids, remembered: a template's answers do not change (nothing is placed through it). */
  private remembered(podKey: string): { deciding: readonly string[]; counting: readonly string[] } {
    this.memo ??= new Map();
    let known = this.memo.get(podKey);
    if (!known)
      this.memo.set(
        podKey,
        (known = { deciding: this.decidingNow(podKey), counting: this.countingNow(podKey) }),
      );
    return known;
  }

  /** Adds `n` to a group's count in `domain`, as the placements it stands for would have (no journal, no observer). */
  addCount(id: string, domain: string, n: number): void {
    this.byId(id)?.record(domain, n);
  }

  /** Whether `domain` counts for the pod in the group (the fork's reach rule, or upstream's). */
  counts(pod: PodState, id: string, domain: string): boolean {
    const g = this.byId(id);
    return g !== undefined && this.countedFor(pod, g)(domain);
  }

  private byId(id: string): TopologyGroup | undefined {
    return this.ids.get(id);
  }

  private countedFor(pod: PodState, g: TopologyGroup): (domain: string) => boolean {
    return countedFor(this.universe, this.options, this.reach, pod, g);
  }

  private filterMatches(g: TopologyGroup, taints: readonly Taint[], requirements: Requirements): boolean {
    return filterMatches(this.filters.get(g), taints, requirements, this.options.allowUndefined);
  }

  private own(pod: PodState): void {
    const groups: TopologyGroup[] = [];
    for (const { spec, filter } of ownSpecs(pod, this.namespaces).groups)
      groups.push(this.groupFor(this.groups, spec, filter));
    for (const g of groups) g.owners.add(pod.key);
    this.owned.set(pod.key, groups);
  }

  private ownedOf(key: string): readonly TopologyGroup[] {
    return this.owned.get(key) ?? this.inherit(key)?.owned ?? NONE;
  }

  private selectingOf(key: string): readonly TopologyGroup[] {
    return this.selecting.get(key) ?? this.inherit(key)?.selecting ?? NONE;
  }

  private inverseSelectingOf(key: string): readonly TopologyGroup[] {
    return this.inverseSelecting.get(key) ?? this.inherit(key)?.inverse ?? NONE;
  }

  // A template pod's groups, first asked: the template's, as this run's groups of the same id, plus the groups
  // only this run has that select it (as indexSelecting would have found them at construction).
  private inherit(
    key: string,
  ): { owned: TopologyGroup[]; selecting: TopologyGroup[]; inverse: TopologyGroup[] } | undefined {
    const t = this.template;
    const info = t?.pendingInfo(key);
    if (!t || !info || !this.added) return undefined;
    const owned = this.mine(t.ownedOf(key));
    const selecting = this.mine(t.selectingOf(key));
    for (const g of this.added.groups) if (g.selectsPod(info.namespace, info.labels)) selecting.push(g);
    const inverse = this.mine(t.inverseSelectingOf(key));
    for (const g of this.added.inverse) if (g.selectsPod(info.namespace, info.labels)) inverse.push(g);
    this.owned.set(key, owned);
    this.selecting.set(key, selecting);
    this.inverseSelecting.set(key, inverse);
    return { owned, selecting, inverse };
  }

  /** This run's groups of the same ids as a template's. */
  private mine(groups: readonly TopologyGroup[]): TopologyGroup[] {
    const out: TopologyGroup[] = [];
    for (const g of groups) out.push(this.ids.get(g.id) as TopologyGroup);
    return out;
  }

  /** A pending pod of this run (a template's included), by key. */
  private pendingInfo(key: string): TopologyPod | undefined {
    if (!this.infos) {
      this.infos = new Map();
      for (const p of this.pending) this.infos.set(p.key, p.info);
    }
    return this.infos.get(key) ?? this.template?.pendingInfo(key);
  }

  // Which groups select a pod depends on its namespace and labels alone, and a deployment's replicas share them:
  // judged once per label set while the groups stay the same (a new group clears the verdicts).
  private indexSelecting(pod: TopologyPod): void {
    const shape = selectionShape(pod);
    let known = this.selectionByShape.get(shape);
    if (!known) {
      const sel: TopologyGroup[] = [];
      for (const g of this.groups.values()) if (g.selectsPod(pod.namespace, pod.labels)) sel.push(g);
      const inv: TopologyGroup[] = [];
      for (const g of this.inverse.values()) if (g.selectsPod(pod.namespace, pod.labels)) inv.push(g);
      this.selectionByShape.set(shape, (known = { sel, inv }));
    }
    this.selecting.set(pod.key, known.sel);
    this.inverseSelecting.set(pod.key, known.inv);
  }

  private inverseGroupOf(spec: GroupSpec): TopologyGroup {
    let g = this.inverse.get(spec.hash);
    if (!g) {
      g = new TopologyGroup(spec, groupId(true, spec.hash));
      for (const d of this.universe.domains(spec.key)) g.register(d);
      this.inverse.set(spec.hash, g);
      this.ids.set(g.id, g);
      this.selectionByShape.clear();
    }
    return g;
  }

  private groupFor(map: Map<string, TopologyGroup>, spec: GroupSpec, filter?: Filter): TopologyGroup {
    let g = map.get(spec.hash);
    if (!g) {
      g = new TopologyGroup(spec, groupId(false, spec.hash));
      if (filter) this.filters.set(g, filter);
      for (const d of this.universe.domains(g.key)) g.register(d);
      map.set(spec.hash, g);
      this.ids.set(g.id, g);
      this.selectionByShape.clear();
      this.countExisting(g, false);
    }
    return g;
  }

  // Counts bound pods into a group's domains: for normal groups the pods the group selects (on nodes that pass
  // its filter); for inverse groups the owners themselves, at their nodes' domains.
  private countExisting(g: TopologyGroup, inverse: boolean): void {
    let counts = this.share?.counts.get(g.id);
    if (!counts) {
      counts = countBound(this.bound, g, inverse, this.filters.get(g), this.options.allowUndefined);
      this.share?.counts.set(g.id, counts);
    }
    for (const [domain, n] of counts) g.record(domain, n);
    if (this.share?.removed.length)
      for (const [domain, n] of countBound(
        this.share.removed,
        g,
        inverse,
        this.filters.get(g),
        this.options.allowUndefined,
      ))
        g.record(domain, -n);
  }
}

const NONE: readonly TopologyGroup[] = [];
