// What a topology run reads and shares (topology.ts): the pods it counts, the pass-scoped sharing of bound counts
// across simulations (docs/mechanisms/simulation-copy.md), and the fork's reach option.
import type { Taint } from '../model/meta.ts';
import type { PodAffinityTerm } from '../model/pod.ts';
import type { BoundInverseMemo } from './inverse-relevance.ts';
import type { Labels } from './selector.ts';

export interface TopologyPod {
  readonly key: string;
  readonly namespace: string;
  readonly labels: Labels;
}

/** A bound pod as topology counts it. */
export interface BoundPod extends TopologyPod {
  readonly nodeLabels: Labels;
  readonly nodeTaints: readonly Taint[];
  readonly antiAffinity: readonly PodAffinityTerm[];
}

/**
 * Pass-scoped sharing (docs/mechanisms/simulation-copy.md): existing-pod counts per group are computed once over
 * every bound pod of the pass and reused; a simulation that leaves nodes out subtracts only their pods.
 */
export interface TopologyShare {
  readonly counts: Map<string, ReadonlyMap<string, number>>;
  /** Bound pods of the nodes this simulation leaves out (already inside `bound`). */
  readonly removed: readonly BoundPod[];
  /** The inverse groups `bound` imposes (specs and owners), derived by the first simulation of the pass. */
  readonly boundInverse?: BoundInverseMemo;
}

export interface TopologyOptions {
  /** The fork's rule: a pod counts only domains it can reach (off in upstream mode). */
  readonly reachableDomainsOnly: boolean;
  readonly allowUndefined: ReadonlySet<string>;
}
