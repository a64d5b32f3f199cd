// Capacity a pod can be placed on without launching anything: initialized nodes and in-flight NodeClaims
// (Karpenter's ExistingNode). Tracks what this run adds so gangs can roll back.
import { HOSTNAME } from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { add, fitsSum, subtract, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from './host-ports.ts';
import type { Journal } from './journal.ts';
import type { PodState } from './pod-state.ts';
import { labelRequirements, NO_UNDEFINED, type Requirements } from './requirement-set.ts';
import { describeTaint, untolerated } from './taints.ts';
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
  private used: MutableResourceList = {};
  private readonly ports: HostPort[];
  private readonly volumes: Map<string, number>;

  /** Called with the node's free capacity whenever a placement or its undo changes it. */
  onFreeChanged: ((free: ResourceList) => void) | undefined;

  free(): ResourceList {
    return subtract(this.input.available, this.used);
  }

  constructor(readonly input: ExistingNodeInput) {
    this.requirements = labelRequirements(input.labels); // shared; add() copies before narrowing
    this.ports = [...input.hostPorts];
    this.volumes = new Map(input.volumeSlots);
  }

  get name(): string {
    return this.input.name;
  }

  get hostname(): string {
    return this.input.labels[HOSTNAME] ?? this.input.name;
  }

  /** Places the pod if it fits; returns undefined on success or the reason it does not fit. */
  add(pod: PodState, topology: Topology, journal: Journal): string | undefined {
    const taint = untolerated(this.input.taints, pod.tolerations);
    if (taint) return `did not tolerate taint ${describeTaint(taint)}`;
    const port = hostPortConflict(this.ports, pod.info.hostPorts);
    if (port) return `host port ${port.port}/${port.protocol} in use`;
    for (const driver of pod.info.volumeDrivers) {
      if ((this.volumes.get(driver) ?? Number.POSITIVE_INFINITY) < 1)
        return `volume limit for ${driver} reached`;
    }
    // Karpenter's message; naming the resource would cost an allocation on the most common failure
    if (!fitsSum(this.used, pod.info.requests, this.input.available)) return 'exceeds node resources';
    const incompatible = this.requirements.incompatibility(pod.requirements, NO_UNDEFINED);
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
    this.ports.push(...pod.info.hostPorts);
    for (const d of pod.info.volumeDrivers)
      if (this.volumes.has(d)) this.volumes.set(d, (this.volumes.get(d) as number) - 1);
    journal.push(() => {
      this.pods.pop();
      this.used = prev.used;
      this.requirements = prev.requirements;
      this.ports.length -= pod.info.hostPorts.length;
      for (const d of pod.info.volumeDrivers)
        if (this.volumes.has(d)) this.volumes.set(d, (this.volumes.get(d) as number) + 1);
      this.onFreeChanged?.(this.free());
    });
    this.onFreeChanged?.(this.free());
    topology.record(pod.info, this.input.taints, final);
    return undefined;
  }
}
