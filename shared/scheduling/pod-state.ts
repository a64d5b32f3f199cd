// A pending pod as the scheduler sees it: fixed facts (requests, host ports, gang) plus the relaxable
// preferences and the requirements derived from them (Karpenter's NewPodRequirements + Preferences.Relax).
import type { NodeSelectorTerm, Toleration } from '../model/meta.ts';
import type {
  Pod,
  PodAffinityTerm,
  PreferredSchedulingTerm,
  TopologySpreadConstraint,
} from '../model/pod.ts';
import type { ResourceList } from '../model/resources.ts';
import type { HostPort } from './host-ports.ts';
import { Requirements } from './requirement-set.ts';
import type { Labels } from './selector.ts';

export interface Gang {
  readonly name: string; // namespace/name of the PodGroup
  readonly minMember: number;
  /** Every member in one zone (docs/mechanisms/gangs.md#placement). */
  readonly oneZone?: boolean;
}

export interface PendingPod {
  readonly key: string;
  readonly uid: string;
  readonly namespace: string;
  readonly labels: Labels;
  readonly pod: Pod;
  readonly requests: ResourceList;
  readonly hostPorts: readonly HostPort[];
  /** Topology of the pod's volumes (bound PVs, storage class topologies) when it is one alternative. */
  readonly volumeRequirements: Requirements | undefined;
  /**
   * Several alternatives (OR) of volume topology: each is tried in order wherever the pod is placed, the first
   * that fits wins (Karpenter's tryVolumeAlternative); they are not part of the pod's requirements.
   */
  readonly volumeAlternatives?: readonly Requirements[] | undefined;
  /** The claims the pod attaches through a CSI driver. */
  readonly volumes: readonly PodVolume[];
  readonly gang: Gang | undefined;
  readonly order: { readonly cpu: number; readonly memory: number; readonly created: string };
}

/** One claim a pod attaches, by its CSI driver: attach limits count distinct claims per driver. */
export interface PodVolume {
  /** `namespace/name` of the PersistentVolumeClaim. */
  readonly id: string;
  readonly driver: string;
}

interface WeightedTerm {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTerm;
}

/** The relaxable part of a pod spec; each relaxation step removes one soft constraint. */
export class PodState {
  requiredTerms: NodeSelectorTerm[];
  preferredNode: PreferredSchedulingTerm[];
  affinityRequired: PodAffinityTerm[];
  affinityPreferred: WeightedTerm[];
  antiRequired: PodAffinityTerm[];
  antiPreferred: WeightedTerm[];
  spread: TopologySpreadConstraint[];
  tolerations: Toleration[];
  requirements!: Requirements;
  strictRequirements!: Requirements;
  /** Ordered OR terms of the strict requirements (for topology node filters). */
  strictTerms!: Requirements[];

  constructor(
    readonly info: PendingPod,
    private readonly toleratePreferNoSchedule: boolean,
  ) {
    const spec = info.pod.spec;
    const byWeight = <T extends { weight: number }>(xs: readonly T[] | undefined): T[] =>
      [...(xs ?? [])].sort((a, b) => b.weight - a.weight);
    this.requiredTerms = [
      ...(spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
        []),
    ];
    this.preferredNode = byWeight(
      spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
    this.affinityRequired = [
      ...(spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    this.affinityPreferred = byWeight(
      spec.affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
    this.antiRequired = [
      ...(spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    this.antiPreferred = byWeight(
      spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
    this.spread = [...(spec.topologySpreadConstraints ?? [])];
    this.tolerations = [...(spec.tolerations ?? [])];
    this.derive();
  }

  get key(): string {
    return this.info.key;
  }

  private shapeText: string | undefined;

  /** What decides which domains the pod can reach: strict requirements and tolerations, as text. */
  get shape(): string {
    return (this.shapeText ??= `${this.strictRequirements.toString()}\u0001${JSON.stringify(this.tolerations)}`);
  }

  private fitText: string | undefined;

  /** What decides whether a node's taints and labels admit the pod: its requirements and tolerations, as text. */
  get fitKey(): string {
    return (this.fitText ??= `${this.requirements.fingerprint()}\u0004${JSON.stringify(this.tolerations)}${alternativesKey(this.info)}`);
  }

  /** Bumped whenever a relaxation changes what the pod asks: memos of its derived specs check it. */
  revision = 0;

  /** A requirement the scheduler adds for a while (a one-zone gang tried in one zone: place-gang-zone.ts). */
  private pinned: Requirements | undefined;

  /** Adds `requirements` to what the pod asks (undefined: removes the pin). */
  pin(requirements: Requirements | undefined): void {
    this.pinned = requirements;
    this.derive();
  }

  /** The relaxation state now, and a function that returns the pod to it (each zone of a gang starts alike). */
  save(): () => void {
    const saved = {
      requiredTerms: [...this.requiredTerms],
      preferredNode: [...this.preferredNode],
      affinityPreferred: [...this.affinityPreferred],
      antiPreferred: [...this.antiPreferred],
      spread: [...this.spread],
      tolerations: [...this.tolerations],
    };
    return () => {
      Object.assign(this, {
        requiredTerms: [...saved.requiredTerms],
        preferredNode: [...saved.preferredNode],
        affinityPreferred: [...saved.affinityPreferred],
        antiPreferred: [...saved.antiPreferred],
        spread: [...saved.spread],
        tolerations: [...saved.tolerations],
      });
      this.derive();
    };
  }

  private derive(): void {
    this.revision++;
    this.shapeText = undefined;
    this.fitText = undefined;
    const base = Requirements.fromLabels(this.info.pod.spec.nodeSelector);
    if (this.info.volumeRequirements) base.addAll(this.info.volumeRequirements);
    if (this.pinned) base.addAll(this.pinned);
    const first = this.requiredTerms[0];
    this.strictTerms = (this.requiredTerms.length ? this.requiredTerms : [undefined]).map((t) =>
      base.copy().addAll(Requirements.fromSelectors(t?.matchExpressions)),
    );
    this.strictRequirements = base.copy().addAll(Requirements.fromSelectors(first?.matchExpressions));
    const requirements = this.strictRequirements.copy();
    const preferred = this.preferredNode[0];
    if (preferred) requirements.addAll(Requirements.fromSelectors(preferred.preference.matchExpressions));
    this.requirements = requirements;
  }

  /** One relaxation step in Karpenter's order; returns what was relaxed, or undefined when nothing is left. */
  relax(): string | undefined {
    const step = this.relaxOnce();
    if (step) this.derive();
    return step;
  }

  private relaxOnce(): string | undefined {
    if (this.requiredTerms.length > 1) {
      this.requiredTerms.shift(); // never relax the final required term
      return 'required node affinity term';
    }
    if (this.affinityPreferred.length) {
      this.affinityPreferred.shift();
      return 'preferred pod affinity term';
    }
    if (this.antiPreferred.length) {
      this.antiPreferred.shift();
      return 'preferred pod anti-affinity term';
    }
    if (this.preferredNode.length) {
      this.preferredNode.shift();
      return 'preferred node affinity term';
    }
    const soft = this.spread.findIndex((s) => s.whenUnsatisfiable === 'ScheduleAnyway');
    if (soft >= 0) {
      this.spread.splice(soft, 1);
      return 'ScheduleAnyway topology spread';
    }
    if (
      this.toleratePreferNoSchedule &&
      !this.tolerations.some((t) => t.operator === 'Exists' && !t.key && t.effect === 'PreferNoSchedule')
    ) {
      this.tolerations.push({ operator: 'Exists', effect: 'PreferNoSchedule' });
      return 'PreferNoSchedule taints';
    }
    return undefined;
  }
}

const altKeys = new WeakMap<PendingPod, string>();
/** The volume alternatives as text, for the static verdicts' memo (empty when the pod has none). */
function alternativesKey(info: PendingPod): string {
  if (!info.volumeAlternatives) return '';
  let k = altKeys.get(info);
  if (k === undefined)
    altKeys.set(info, (k = `\u0005${info.volumeAlternatives.map((a) => a.fingerprint()).join('\u0006')}`));
  return k;
}
