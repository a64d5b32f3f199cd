// A NodeClaim the run would create (Karpenter's scheduling.NodeClaim): accumulates pods, narrows its
// requirements and keeps only the instance types that still fit every pod plus daemon overhead.
import { CAPACITY_TYPE, HOSTNAME, ZONE } from '../model/labels.ts';
import { add, EMPTY, fitsSum, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from './host-ports.ts';
import { offeringCompatible, type InstanceType } from './instance-type.ts';
import type { Journal } from './journal.ts';
import { NO_ALTERNATIVE, VOLUME_MISMATCH } from './nodes.ts';
import type { PodState } from './pod-state.ts';
import { Requirement } from './requirement.ts';
import type { Requirements } from './requirement-set.ts';
import { describeTaint, untolerated } from './taints.ts';
import type { NodeClaimTemplate } from './template.ts';
import type { Topology } from './topology.ts';

/** A claim's state after one of its placements: what `NewClaim.at` restores (every field is replaced, never mutated). */
export interface ClaimState {
  readonly pods: number;
  readonly requirements: Requirements;
  readonly instanceTypes: readonly InstanceType[];
  readonly requests: ResourceList;
  readonly ceiling: ResourceList;
}

export class NewClaim {
  readonly pods: PodState[] = [];
  requirements: Requirements;
  instanceTypes: readonly InstanceType[];
  requests: MutableResourceList = {};
  private readonly ports: HostPort[];
  /** Per resource, the largest allocatable among the remaining types: a cheap upper bound for pre-checks. */
  ceiling: ResourceList;

  constructor(
    readonly template: NodeClaimTemplate,
    readonly hostname: string,
    instanceTypes: readonly InstanceType[],
    private readonly allowUndefined: ReadonlySet<string>,
  ) {
    this.requirements = template.requirements.copy().add(Requirement.in(HOSTNAME, hostname));
    this.instanceTypes = instanceTypes;
    this.ports = [...template.daemonHostPorts];
    this.ceiling = ceilingOf(instanceTypes);
  }

  /** What the claim holds now (the delta simulation's base records it per placement). */
  state(): ClaimState {
    const { requirements, instanceTypes, requests, ceiling } = this;
    return { pods: this.pods.length, requirements, instanceTypes, requests, ceiling };
  }

  /** A copy of `claim` as it stood at `s`: its first `s.pods` pods, their host ports, the state's fields. */
  static at(claim: NewClaim, s: ClaimState): NewClaim {
    const c = new NewClaim(claim.template, claim.hostname, s.instanceTypes, claim.allowUndefined);
    c.pods.push(...claim.pods.slice(0, s.pods));
    for (const p of c.pods) c.ports.push(...p.info.hostPorts);
    c.requirements = s.requirements;
    c.requests = { ...s.requests };
    c.ceiling = s.ceiling;
    return c;
  }

  /** False when the pod cannot fit even the largest remaining type (skips the full check). */
  mightFit(requests: ResourceList): boolean {
    return mightFit(this, requests);
  }

  add(pod: PodState, topology: Topology, journal: Journal): string | undefined {
    const taint = untolerated(this.template.taints, pod.tolerations);
    if (taint) return `did not tolerate taint ${describeTaint(taint)} of NodePool ${this.template.nodePool}`;
    const port = hostPortConflict(this.ports, pod.info.hostPorts);
    if (port) return `host port ${port.port}/${port.protocol} in use`;
    const incompatible = this.requirements.incompatibility(pod.requirements, this.allowUndefined);
    if (incompatible) return incompatible;
    const requests = add(this.requests, pod.info.requests);
    const fit = this.fitFor(pod, topology, requests);
    if (typeof fit === 'string') return fit;
    const { final, remaining } = fit;

    const prev = {
      requirements: this.requirements,
      types: this.instanceTypes,
      requests: this.requests,
      ceiling: this.ceiling,
    };
    this.pods.push(pod);
    this.requirements = final;
    if (remaining.length !== this.instanceTypes.length) this.ceiling = ceilingOf(remaining);
    this.instanceTypes = remaining;
    this.requests = requests;
    this.ports.push(...pod.info.hostPorts);
    journal.push(() => {
      this.pods.pop();
      this.requirements = prev.requirements;
      this.instanceTypes = prev.types;
      this.requests = prev.requests;
      this.ceiling = prev.ceiling;
      this.ports.length -= pod.info.hostPorts.length;
    });
    topology.record(pod.info, this.template.taints, final);
    return undefined;
  }

  /**
   * The claim's requirements with the pod's, its first volume alternative that leaves a type, and its topology's,
   * with the types that remain (Karpenter's NodeClaim.CanAdd: alternatives in order, the last failure reported).
   */
  private fitFor(
    pod: PodState,
    topology: Topology,
    requests: ResourceList,
  ): { final: Requirements; remaining: InstanceType[] } | string {
    let last = VOLUME_MISMATCH;
    for (const alternative of pod.info.volumeAlternatives ?? NO_ALTERNATIVE) {
      const withPod = this.requirements.copy().addAll(pod.requirements);
      if (alternative) {
        const off = withPod.incompatibility(alternative, this.allowUndefined);
        if (off) {
          last = `${VOLUME_MISMATCH}, ${off}`;
          continue;
        }
        withPod.addAll(alternative);
      }
      const topo = topology.addRequirements(pod, this.template.taints, withPod);
      const conflict = typeof topo === 'string' ? topo : withPod.incompatibility(topo, this.allowUndefined);
      if (conflict || typeof topo === 'string') {
        last = conflict ?? last;
        continue;
      }
      const final = withPod.addAll(topo);
      const remaining = this.filterTypes(final, requests);
      if (typeof remaining !== 'string') return { final, remaining };
      last = remaining;
    }
    return last;
  }

  // Karpenter's filterInstanceTypesByRequirements: requirements intersect, an available offering is compatible,
  // and requests plus the type's daemon overhead fit its allocatable; then minValues must still hold.
  // Every remaining type already passed the requirement and offering checks against this.requirements, so
  // only keys the pod narrowed are re-checked (and offerings only when zone or capacity type narrowed).
  private filterTypes(reqs: Requirements, requests: ResourceList): InstanceType[] | string {
    const out: InstanceType[] = [];
    let requirementsOk = false;
    let offeringOk = false;
    const changed = reqs.changedSince(this.requirements);
    const offeringsChanged = changed.includes(ZONE) || changed.includes(CAPACITY_TYPE);
    for (const it of this.instanceTypes) {
      if (changed.length && reqs.conflictOn(it.requirements, changed) !== undefined) continue;
      requirementsOk = true;
      if (offeringsChanged && !it.offerings.some((o) => o.available && offeringCompatible(o, reqs))) continue;
      offeringOk = true;
      if (fitsSum(requests, this.template.daemonOverhead.get(it.name) ?? EMPTY, it.allocatable)) out.push(it);
    }
    if (out.length === 0) {
      if (!requirementsOk)
        return `no instance type of NodePool ${this.template.nodePool} satisfies the requirements`;
      if (!offeringOk)
        return `no available offering of NodePool ${this.template.nodePool} matches the requirements`;
      return `no instance type of NodePool ${this.template.nodePool} has enough resources`;
    }
    for (const r of reqs.values()) {
      if (r.minValues === undefined) continue;
      const seen = new Set<string>();
      for (const it of out) {
        const v = it.labels[r.key];
        if (v !== undefined && r.has(v)) seen.add(v);
      }
      if (seen.size < r.minValues) {
        return `minValues requirement is not met for ${r.key} (${seen.size} < ${r.minValues})`;
      }
    }
    return out;
  }
}

// Memoized by array: every fresh claim of a pool starts from the same instance-type list.
const ceilings = new WeakMap<readonly InstanceType[], ResourceList>();
function ceilingOf(types: readonly InstanceType[]): ResourceList {
  const cached = ceilings.get(types);
  if (cached) return cached;
  const out: MutableResourceList = {};
  for (const it of types)
    for (const k in it.allocatable) out[k] = Math.max(out[k] ?? 0, it.allocatable[k] as number);
  ceilings.set(types, out);
  return out;
}

/**
 * False when `requests` cannot fit a claim in `state` even on its largest remaining type. Once false it stays
 * false as the claim takes more pods (its requests only grow, its types only shrink).
 */
export function mightFit(state: Pick<ClaimState, 'requests' | 'ceiling'>, requests: ResourceList): boolean {
  for (const k in requests) {
    const want = (requests[k] as number) + (state.requests[k] ?? 0);
    if (want > 0 && want > (state.ceiling[k] ?? 0)) return false;
  }
  return true;
}
