// Capacity a pod can be placed on without launching anything: initialized nodes and in-flight NodeClaims
// (Karpenter's ExistingNode). Tracks what this run adds so gangs can roll back.
import { HOSTNAME } from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { add, fitsSum, subtract, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from './host-ports.ts';
import type { Journal } from './journal.ts';
import type { PodState } from './pod-state.ts';
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
  /** Per CSI driver: attachable volumes left, when the node reports a limit. */
  readonly volumeSlots: ReadonlyMap<string, number>;
  readonly inFlight: boolean;
}

export class ExistingNode {
  readonly pods: PodState[] = [];
  requirements: Requirements;
  /** The node's own labels as requirements, shared by every simulation of the pass (never mutated). */
  private readonly initial: Requirements;
  private used: MutableResourceList = {};
  // Copied from the input on the first placement that changes them: most nodes of a simulation get none.
  private ports: HostPort[] | undefined;
  private volumes: Map<string, number> | undefined;

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
    const fit = staticFit(this.input, this.initial, pod);
    if (fit & TAINT) return false;
    if (this.requirements === this.initial) return (fit & LABELS) === 0;
    return this.requirements.incompatibility(pod.requirements, NO_UNDEFINED) === undefined;
  }

  /** Places the pod if it fits; returns undefined on success or the reason it does not fit. */
  add(pod: PodState, topology: Topology, journal: Journal): string | undefined {
    const fit = staticFit(this.input, this.initial, pod);
    if (fit & TAINT) return taintReason(this.input, pod);
    // narrowing only ever adds requirements, but Compatible is not monotone in them: the memo holds for the labels alone
    const fresh = this.requirements === this.initial;
    if (fresh && fit & LABELS) return this.initial.incompatibility(pod.requirements, NO_UNDEFINED);
    const port = hostPortConflict(this.ports ?? this.input.hostPorts, pod.info.hostPorts);
    if (port) return `host port ${port.port}/${port.protocol} in use`;
    const volumes = this.volumes ?? this.input.volumeSlots;
    for (const driver of pod.info.volumeDrivers) {
      if ((volumes.get(driver) ?? Number.POSITIVE_INFINITY) < 1) return `volume limit for ${driver} reached`;
    }
    // Karpenter's message; naming the resource would cost an allocation on the most common failure
    if (!fitsSum(this.used, pod.info.requests, this.input.available)) return 'exceeds node resources';
    const incompatible = fresh
      ? undefined
      : this.requirements.incompatibility(pod.requirements, NO_UNDEFINED);
    if (incompatible) return incompatible;
    const withPod = this.requirements.copy().addAll(pod.requirements);
    const topo = topology.addRequirements(pod, this.input.taints, withPod);
    if (typeof topo === 'string') return topo;
    const conflict = withPod.incompatibility(topo, NO_UNDEFINED);
    if (conflict) return conflict;
    const final = withPod.addAll(topo);

    const requests = add(this.used, pod.info.requests);
    const prev = { used: this.used, requirements: this.requirements };
    this.pods.push(pod);
    this.used = requests;
    this.requirements = final;
    const ports = pod.info.hostPorts.length ? (this.ports ??= [...this.input.hostPorts]) : undefined;
    ports?.push(...pod.info.hostPorts);
    const slots = this.slotsFor(pod.info.volumeDrivers);
    for (const d of pod.info.volumeDrivers) if (slots?.has(d)) slots.set(d, (slots.get(d) as number) - 1);
    journal.push(() => {
      this.pods.pop();
      this.used = prev.used;
      this.requirements = prev.requirements;
      if (ports) ports.length -= pod.info.hostPorts.length;
      for (const d of pod.info.volumeDrivers) if (slots?.has(d)) slots.set(d, (slots.get(d) as number) + 1);
      this.onFreeChanged?.(this.free());
    });
    this.onFreeChanged?.(this.free());
    topology.record(pod.info, this.input.taints, final);
    return undefined;
  }

  /** The node's own copy of its volume slots, made when a placement first uses a driver with a limit. */
  private slotsFor(drivers: readonly string[]): Map<string, number> | undefined {
    if (!this.volumes && drivers.some((d) => this.input.volumeSlots.has(d)))
      this.volumes = new Map(this.input.volumeSlots);
    return this.volumes;
  }
}

/** Whether a node nothing was placed on rejects the pod on taints or labels alone (the pass's memoized verdict). */
export function staticallyRejects(input: ExistingNodeInput, pod: PodState): boolean {
  return staticFit(input, labelRequirements(input.labels), pod) !== 0;
}
