// Capacity a pod can be placed on without launching anything: initialized nodes and in-flight NodeClaims
// (Karpenter's ExistingNode). Tracks what this run adds so gangs can roll back.
import { HOSTNAME } from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { add, fitsSum, subtract, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from './host-ports.ts';
import type { Journal } from './journal.ts';
import type { PendingPod, PodState } from './pod-state.ts';
import { labelRequirements, NO_UNDEFINED, type Requirements } from './requirement-set.ts';
import { LABELS, staticFit, TAINT, taintReason } from './static-fit.ts';
import type { Topology } from './topology.ts';

export interface ExistingNodeInput {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Taints that apply to new pods (startup/ephemeral taints already dropped for in-flight capacity). */
  readonly taints: readonly Taint[];
  /** Allocatable minus what bound pods (and expected daemons) request. */
  readonly available: ResourceList;
  readonly hostPorts: readonly HostPort[];
  /** Per CSI driver the node reports a limit for: the limit and the claims already attached. */
  readonly volumeLimits: ReadonlyMap<string, VolumeLimit>;
  readonly inFlight: boolean;
  /** Pods the node may not take whatever its room (a consolidation destination under consolidateAfter). */
  readonly refuses?: ((pod: PendingPod) => boolean) | undefined;
}

/**
 * Nodes a consolidation simulation may not move pods onto, and which pods that concerns (Karpenter v1.14's
 * Scheduler with IsConsolidationSimulation: isUnderConsolidateAfter nodes refuse all but exempt pods).
 */
export interface DestinationGuard {
  readonly nodes: ReadonlySet<string>;
  refuses(pod: PendingPod): boolean;
}

export const UNDER_CONSOLIDATE_AFTER = 'node is under its consolidateAfter window';

/** A CSINode attach limit (Karpenter's VolumeUsage): distinct claims count, not pods. */
export interface VolumeLimit {
  readonly limit: number;
  readonly claims: ReadonlySet<string>;
}

export const NO_LIMITS: ReadonlyMap<string, VolumeLimit> = new Map();

/** A pod without volume alternatives is tried once, with none (Karpenter's `[]Requirements{nil}`). */
export const NO_ALTERNATIVE: readonly (Requirements | undefined)[] = [undefined];
export const VOLUME_MISMATCH = 'incompatible volume requirements';

export class ExistingNode {
  readonly pods: PodState[] = [];
  requirements: Requirements;
  /** The node's own labels as requirements, shared by every simulation of the pass (never mutated). */
  private readonly initial: Requirements;
  private used: MutableResourceList = {};
  // Copied from the input on the first placement that changes them: most nodes of a simulation get none.
  private ports: HostPort[] | undefined;
  /** Per limited driver, the claims this run attached beyond the input's. */
  private attached: Map<string, Set<string>> | undefined;

  /** Called with the node's free capacity whenever a placement or its undo changes it. */
  onFreeChanged: ((free: ResourceList) => void) | undefined;

  free(): ResourceList {
    return this.pods.length ? subtract(this.input.available, this.used) : this.input.available;
  }

  /** Whether `requests` fit what is free, without building the free list (a node walk's cheap test). */
  fits(requests: ResourceList): boolean {
    return fitsSum(this.used, requests, this.input.available);
  }

  constructor(readonly input: ExistingNodeInput) {
    this.initial = labelRequirements(input.labels); // shared; add() copies before narrowing
    this.requirements = this.initial;
  }

  get name(): string {
    return this.input.name;
  }

  get hostname(): string {
    return this.input.labels[HOSTNAME] ?? this.input.name;
  }

  /**
   * Whether the node's taints and its requirements as narrowed so far admit the pod, whatever its load: the
   * labels' verdict until a placement narrowed them, after which a key the node has no label for may admit what
   * the labels turn away (docs/mechanisms/delta-simulation.md, point 4).
   */
  admitsStatically(pod: PodState): boolean {
    if (this.input.refuses?.(pod.info)) return false;
    const fit = staticFit(this.input, this.initial, pod);
    if (fit & TAINT) return false;
    if (this.requirements === this.initial) return (fit & LABELS) === 0;
    if (this.requirements.incompatibility(pod.requirements, NO_UNDEFINED) !== undefined) return false;
    const alternatives = pod.info.volumeAlternatives;
    if (!alternatives) return true;
    const withPod = this.requirements.copy().addAll(pod.requirements);
    return alternatives.some((a) => withPod.incompatibility(a, NO_UNDEFINED) === undefined);
  }

  /** Places the pod if it fits; returns undefined on success or the reason it does not fit. */
  add(pod: PodState, topology: Topology, journal: Journal): string | undefined {
    if (this.input.refuses?.(pod.info)) return UNDER_CONSOLIDATE_AFTER;
    const fit = staticFit(this.input, this.initial, pod);
    if (fit & TAINT) return taintReason(this.input, pod);
    // narrowing only ever adds requirements, but Compatible is not monotone in them: the memo holds for the labels alone
    const fresh = this.requirements === this.initial;
    if (fresh && fit & LABELS)
      return this.initial.incompatibility(pod.requirements, NO_UNDEFINED) ?? VOLUME_MISMATCH;
    const port = hostPortConflict(this.ports ?? this.input.hostPorts, pod.info.hostPorts);
    if (port) return `host port ${port.port}/${port.protocol} in use`;
    const volumes = this.volumeConflict(pod);
    if (volumes) return volumes;
    // Karpenter's message; naming the resource would cost an allocation on the most common failure
    if (!fitsSum(this.used, pod.info.requests, this.input.available)) return 'exceeds node resources';
    const incompatible = fresh
      ? undefined
      : this.requirements.incompatibility(pod.requirements, NO_UNDEFINED);
    if (incompatible) return incompatible;
    const final = this.narrowedFor(pod, topology);
    if (typeof final === 'string') return final;

    const requests = add(this.used, pod.info.requests);
    const prev = { used: this.used, requirements: this.requirements };
    this.pods.push(pod);
    this.used = requests;
    this.requirements = final;
    const ports = pod.info.hostPorts.length ? (this.ports ??= [...this.input.hostPorts]) : undefined;
    ports?.push(...pod.info.hostPorts);
    const attached = this.attach(pod);
    journal.push(() => {
      this.pods.pop();
      this.used = prev.used;
      this.requirements = prev.requirements;
      if (ports) ports.length -= pod.info.hostPorts.length;
      for (const [d, id] of attached) this.attached?.get(d)?.delete(id);
      this.onFreeChanged?.(this.free());
    });
    this.onFreeChanged?.(this.free());
    topology.record(pod.info, this.input.taints, final);
    return undefined;
  }

  /**
   * The node's requirements with the pod's, its first volume alternative that fits, and its topology's
   * (Karpenter's ExistingNode.CanAdd: each alternative tried in order, the last failure reported).
   */
  private narrowedFor(pod: PodState, topology: Topology): Requirements | string {
    let last = VOLUME_MISMATCH;
    for (const alternative of pod.info.volumeAlternatives ?? NO_ALTERNATIVE) {
      const withPod = this.requirements.copy().addAll(pod.requirements);
      if (alternative) {
        const off = withPod.incompatibility(alternative, NO_UNDEFINED);
        if (off) {
          last = `${VOLUME_MISMATCH}, ${off}`;
          continue;
        }
        withPod.addAll(alternative);
      }
      const topo = topology.addRequirements(pod, this.input.taints, withPod);
      if (typeof topo === 'string') {
        last = topo;
        continue;
      }
      const conflict = withPod.incompatibility(topo, NO_UNDEFINED);
      if (conflict) {
        last = conflict;
        continue;
      }
      return withPod.addAll(topo);
    }
    return last;
  }

  /**
   * Karpenter's VolumeUsage.ExceedsLimits: for every driver the node limits, the distinct claims attached with
   * the pod's must stay within the limit — a claim the node already attaches (a PVC shared by its pods) takes no
   * second attachment, and a node over a limit takes no pod at all.
   */
  private volumeConflict(pod: PodState): string | undefined {
    for (const [driver, { limit, claims }] of this.input.volumeLimits) {
      const added = this.attached?.get(driver);
      let count = claims.size + (added?.size ?? 0);
      const fresh = new Set<string>();
      for (const v of pod.info.volumes)
        if (v.driver === driver && !claims.has(v.id) && !added?.has(v.id)) fresh.add(v.id);
      count += fresh.size;
      if (count > limit) return `volume limit for ${driver} reached`;
    }
    return undefined;
  }

  /** Records the claims the pod attaches anew on limited drivers; returns them, for the undo. */
  private attach(pod: PodState): [string, string][] {
    const out: [string, string][] = [];
    for (const v of pod.info.volumes) {
      const known = this.input.volumeLimits.get(v.driver);
      if (!known || known.claims.has(v.id)) continue;
      const set = (this.attached ??= new Map()).get(v.driver) ?? new Set<string>();
      this.attached.set(v.driver, set);
      if (set.has(v.id)) continue;
      set.add(v.id);
      out.push([v.driver, v.id]);
    }
    return out;
  }
}

/** Whether a node nothing was placed on rejects the pod on taints or labels alone (the pass's memoized verdict). */
export function staticallyRejects(input: ExistingNodeInput, pod: PodState): boolean {
  return staticFit(input, labelRequirements(input.labels), pod) !== 0 || input.refuses?.(pod.info) === true;
}
