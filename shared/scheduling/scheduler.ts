// The scheduling simulator (Karpenter's Scheduler.Solve): each pod tries existing capacity first, then the
// claims this run already opened (fewest pods first), then a new claim from the NodePool templates in weight
// order; failures relax one preference and retry until a cycle makes no progress. Gangs go all or nothing.
import { CLOUD, HOSTNAME, type Cloud } from '../model/labels.ts';
import { minOf, NODES, ONE_NODE, subtractWithin, type ResourceList } from '../model/resources.ts';
import { claimPrice, openClaimFor, templatesByWeight, type ClaimOpening } from './claim-opener.ts';
import { CapacityIndex } from './capacity-index.ts';
import { Journal } from './journal.ts';
import { LoadOrder } from './load-order.ts';
import type { NewClaim } from './new-claim.ts';
import { ExistingNode, staticallyRejects, type ExistingNodeInput } from './nodes.ts';
import { PodState, type PendingPod } from './pod-state.ts';
import { byCpuAndMemoryDescending, Queue } from './queue.ts';
import type { NodeClaimTemplate } from './template.ts';
import { Topology, type BoundPod, type TopologyShare } from './topology.ts';
import type { Domains } from './domains.ts';
import { placeGang, type GangContext } from './place-gang.ts';
import { offeredZones } from './place-gang-zone.ts';
import type { GangObserver } from './gang-record.ts';
import type { Labels } from './selector.ts';

export interface SchedulingOptions {
  /** kraftsman: among NodePools of equal weight the cheapest compatible offering wins (upstream: OrderByWeight's name-descending order). */
  readonly cheapestPoolAmongEqualWeights: boolean;
  /** kraftsman: topology domains count only when the pod can reach them. */
  readonly reachableDomainsOnly: boolean;
  readonly toleratePreferNoSchedule: boolean;
  readonly allowUndefined: ReadonlySet<string>;
}

export interface SchedulingInput {
  readonly pods: readonly PendingPod[];
  readonly existing: readonly ExistingNodeInput[];
  readonly templates: readonly NodeClaimTemplate[];
  /** Remaining limits per NodePool that has limits. */
  readonly remaining: ReadonlyMap<string, ResourceList>;
  /** The declared limits of those pools, for reasons that name a limit and its use (absent: what is left only). */
  readonly limits?: ReadonlyMap<string, ResourceList>;
  readonly bound: readonly BoundPod[];
  /** Gang (namespace/name) → members bound to the nodes of this simulation. */
  readonly gangsRunning?: ReadonlyMap<string, number>;
  /** Gang (namespace/name) → the zones of the nodes of this simulation hosting its bound members. */
  readonly gangZones?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Pass-scoped topology counts shared across simulations (undefined: count from `bound` alone). */
  readonly topologyShare?: TopologyShare;
  readonly universe: Domains;
  readonly namespaces: ReadonlyMap<string, Labels>;
  /** Told about every gang placed (the delta simulation's base records them); absent: nothing is copied. */
  readonly onGang?: GangObserver;
  /** Told about every pod placed on a claim, after the claim took it (the delta simulation's base records them). */
  readonly onClaimed?: (pod: PodState, claim: NewClaim) => void;
  /** Told when an undo disturbs the claims' load order and when it is re-sorted (load-order.ts). */
  readonly onClaimOrder?: { dirty(): void; resorted(): void };
  /** Told about every pod as it leaves the queue (a gang: its first member), before it is tried. */
  readonly onPop?: (pod: PodState) => void;
  /** Handed the run's topology once built, before any pod is placed (the delta simulation's base watches it). */
  readonly onTopology?: (topology: Topology) => void;
}

/**
 * When a simulation must give up (Karpenter's Solve watches its context). Asked between pods, so a budget
 * bounds a simulation while it runs instead of being measured after it. Pure: the caller owns the clock.
 */
export interface Deadline {
  passed(): boolean;
}

export type Placement =
  { readonly kind: 'existing'; readonly node: string } | { readonly kind: 'new'; readonly claim: NewClaim };

export interface SchedulingResult {
  readonly placements: ReadonlyMap<string, Placement>;
  readonly errors: ReadonlyMap<string, string>;
  readonly claims: readonly NewClaim[];
  /** Gang (namespace/name) → the new claims hosting its members. */
  readonly gangClaims: ReadonlyMap<string, readonly NewClaim[]>;
  /** Pods that failed an attempt and went back to the queue (placed, if at all, after the first pass). */
  readonly requeued: ReadonlySet<string>;
  /** The deadline passed before every pod was tried: the result is partial and must not be acted on. */
  readonly timedOut: boolean;
  /**
   * The least each limited NodePool had left at any point, per resource, rollbacks notwithstanding (the delta
   * simulation checks its limits never bound).
   */
  readonly leastRemaining: ReadonlyMap<string, ResourceList>;
}

export const TIMED_OUT_ERROR = 'simulation timed out';

export function solve(
  input: SchedulingInput,
  options: SchedulingOptions,
  deadline?: Deadline,
): SchedulingResult {
  return new Scheduler(input, options, deadline).solve();
}

class Scheduler {
  private readonly journal = new Journal();
  private readonly topology: Topology;
  /** Made on a node's first real attempt: most nodes of a simulation are never tried or fail statically. */
  private readonly existing: (ExistingNode | undefined)[];
  private readonly capacity: CapacityIndex;
  private readonly claims: NewClaim[] = [];
  private readonly byLoad: LoadOrder;
  private readonly remaining: Map<string, ResourceList>;
  private readonly least: Map<string, ResourceList>;
  private readonly placements = new Map<string, Placement>();
  private readonly errors = new Map<string, string>();
  private readonly requeued = new Set<string>();
  private readonly states: PodState[];
  private readonly opening: ClaimOpening;
  private hostnames = 0;
  /** While a gang is placed again on one cloud: nodes, claims and NodePools of other clouds are not tried. */
  private gangCloud: Cloud | undefined;
  private readonly gangs: GangContext;

  constructor(
    private readonly input: SchedulingInput,
    options: SchedulingOptions,
    private readonly deadline?: Deadline,
  ) {
    this.states = input.pods.map((p) => new PodState(p, options.toleratePreferNoSchedule));
    this.topology = new Topology(
      input.universe,
      input.namespaces,
      input.bound,
      this.states,
      {
        reachableDomainsOnly: options.reachableDomainsOnly,
        allowUndefined: options.allowUndefined,
      },
      this.journal,
      input.topologyShare,
    );
    input.onTopology?.(this.topology);
    this.existing = new Array<ExistingNode | undefined>(input.existing.length);
    this.byLoad = new LoadOrder(this.claims, this.journal);
    this.byLoad.observer = input.onClaimOrder;
    // an untouched node's free capacity is its input's available
    this.capacity = new CapacityIndex(input.existing.map((n) => n.available));
    this.remaining = new Map(input.remaining);
    this.least = new Map(input.remaining);
    let zoneList: string[] | undefined;
    this.gangs = {
      journal: this.journal,
      topology: this.topology,
      errors: this.errors,
      add: (pod) => this.add(pod),
      cloudOf: (pod) => this.cloudOf(pod),
      confine: (cloud) => {
        this.gangCloud = cloud;
      },
      zones: () => (zoneList ??= offeredZones(input.templates, input.existing)),
      runningZones: (gang) => input.gangZones?.get(gang),
      asksOneZone: (members) =>
        members.some((m) => {
          const p = this.placements.get(m.key);
          return p?.kind === 'new' && p.claim.template.oneZoneGangs === true;
        }),
      claimsOpened: () => this.claims.length,
      costSince: (opened) => this.claims.slice(opened).reduce((sum, c) => sum + claimPrice(c), 0),
    };
    this.opening = {
      templatesByWeight: templatesByWeight(input.templates),
      cheapestPoolAmongEqualWeights: options.cheapestPoolAmongEqualWeights,
      allowUndefined: options.allowUndefined,
      topology: this.topology,
      journal: this.journal,
      limits: input.limits,
      remainingOf: (pool) => this.remaining.get(pool),
      gangCloud: () => this.gangCloud,
      nextHostname: () => `hostname-placeholder-${String(++this.hostnames).padStart(4, '0')}`,
      releaseHostname: () => void this.hostnames--,
    };
  }

  solve(): SchedulingResult {
    const queue = new Queue(this.states);
    const gangsDone = new Set<string>();
    let timedOut = false;
    for (let pod = queue.pop(); pod; pod = queue.pop()) {
      if (this.deadline?.passed()) {
        timedOut = true;
        for (const p of [pod, ...queue.remaining()])
          if (!this.placements.has(p.key)) this.errors.set(p.key, TIMED_OUT_ERROR);
        break;
      }
      this.input.onPop?.(pod);
      const gang = pod.info.gang;
      if (gang) {
        if (!gangsDone.has(gang.name)) {
          gangsDone.add(gang.name);
          const members = this.states
            .filter((s) => s.info.gang?.name === gang.name)
            .sort(byCpuAndMemoryDescending);
          queue.remove(new Set(members.map((m) => m.key)));
          const remaining = this.input.onGang && new Map(this.remaining);
          // members already running count toward the minimum (a consolidation re-places only some of a gang)
          const outcome = placeGang(
            this.gangs,
            gang.name,
            Math.max(0, gang.minMember - (this.input.gangsRunning?.get(gang.name) ?? 0)),
            members,
            gang.oneZone === true,
          );
          if (remaining)
            this.input.onGang?.({ gang: gang.name, remaining, members: members.length, ...outcome });
        }
        continue;
      }
      const err = this.add(pod);
      if (err === undefined) {
        this.errors.delete(pod.key);
        continue;
      }
      this.errors.set(pod.key, err);
      const relaxed = pod.relax() !== undefined;
      if (relaxed) this.topology.update(pod);
      this.requeued.add(pod.key);
      queue.push(pod, relaxed);
    }
    const gangClaims = new Map<string, NewClaim[]>();
    for (const c of this.claims) {
      for (const p of c.pods) {
        const g = p.info.gang?.name;
        if (!g) continue;
        const list = gangClaims.get(g) ?? [];
        if (!list.includes(c)) list.push(c);
        gangClaims.set(g, list);
      }
    }
    return {
      placements: this.placements,
      errors: this.errors,
      claims: this.claims,
      gangClaims,
      requeued: this.requeued,
      timedOut,
      leastRemaining: this.least,
    };
  }

  /** The cloud a member was placed on: its claim's NodePool's, or its node's cloud label. */
  private cloudOf(m: PodState): Cloud | undefined {
    const p = this.placements.get(m.key);
    if (!p) return undefined;
    if (p.kind === 'new') return p.claim.template.cloud;
    return this.input.existing.find((n) => n.name === p.node)?.labels[CLOUD] as Cloud | undefined;
  }

  private add(pod: PodState): string | undefined {
    const excluded = this.topology.excludedHostnames(pod);
    const want = CapacityIndex.wants(pod.info.requests);
    for (let i = this.capacity.next(0, want); i >= 0; i = this.capacity.next(i + 1, want)) {
      const input = this.input.existing[i] as ExistingNodeInput;
      if (excluded?.has(input.labels[HOSTNAME] ?? input.name)) continue;
      if (this.gangCloud && input.labels[CLOUD] !== undefined && input.labels[CLOUD] !== this.gangCloud)
        continue;
      // a node nothing was placed on still has its own labels, so the pass's static verdict decides alone
      if (!this.existing[i] && staticallyRejects(input, pod)) continue;
      const node = this.nodeAt(i);
      if (node.add(pod, this.topology, this.journal) === undefined) {
        this.place(pod, { kind: 'existing', node: node.name });
        return undefined;
      }
    }
    // Claims this run opened, fewest pods first.
    const opened = this.byLoad.ordered();
    for (let i = 0; i < opened.length; i++) {
      const claim = opened[i] as NewClaim;
      if (excluded?.has(claim.hostname) || !claim.mightFit(pod.info.requests)) continue;
      if (this.gangCloud && claim.template.cloud !== this.gangCloud) continue;
      if (claim.add(pod, this.topology, this.journal) === undefined) {
        this.byLoad.changed(i);
        this.place(pod, { kind: 'new', claim });
        return undefined;
      }
    }
    return this.addNewClaim(pod);
  }

  private nodeAt(i: number): ExistingNode {
    let node = this.existing[i];
    if (!node) {
      node = new ExistingNode(this.input.existing[i] as ExistingNodeInput);
      node.onFreeChanged = (free) => this.capacity.set(i, free);
      this.existing[i] = node;
    }
    return node;
  }

  private place(pod: PodState, p: Placement): void {
    this.placements.set(pod.key, p);
    if (p.kind === 'new') this.input.onClaimed?.(pod, p.claim);
    this.journal.push(() => this.placements.delete(pod.key));
  }

  private addNewClaim(pod: PodState): string | undefined {
    const opened = openClaimFor(this.opening, pod);
    return typeof opened === 'string' ? opened : this.commitClaim(opened, pod);
  }

  private commitClaim(claim: NewClaim, pod: PodState): undefined {
    this.claims.push(claim);
    this.journal.push(() => this.claims.pop());
    this.byLoad.opened(claim);
    const pool = claim.template.nodePool;
    const remaining = this.remaining.get(pool);
    if (remaining) {
      // track the largest type the claim might become against the pool's limits (Karpenter's subtractMax)
      const max: Record<string, number> = { [NODES]: ONE_NODE };
      for (const it of claim.instanceTypes)
        for (const k in it.capacity) max[k] = Math.max(max[k] ?? 0, it.capacity[k] as number);
      const left = subtractWithin(remaining, max);
      this.remaining.set(pool, left);
      this.least.set(pool, minOf(this.least.get(pool) ?? left, left));
      this.journal.push(() => this.remaining.set(pool, remaining));
    }
    this.place(pod, { kind: 'new', claim });
    return undefined;
  }
}

export { claimPrice };
