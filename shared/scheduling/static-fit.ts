// Why an existing node rejects a pod whatever this simulation already placed on it: an untolerated taint, or
// labels the pod's requirements cannot meet. Node inputs are built once per pass and a walk tries the same pod
// shapes against the same nodes candidate after candidate, so the verdicts are memoized per node input and
// pod fit key across the pass's simulations (docs/mechanisms/simulation-copy.md).
import type { ExistingNodeInput } from './nodes.ts';
import type { PodState } from './pod-state.ts';
import { NO_UNDEFINED, type Requirements } from './requirement-set.ts';
import { describeTaint, untolerated } from './taints.ts';

export interface StaticFit {
  /** The taint rejection, if any (taints never change within a pass). */
  readonly taint: string | undefined;
  /** The label rejection against the node's own labels; valid only while nothing narrowed them. */
  readonly labels: string | undefined;
}

// Keyed by the input object: it lives as long as the pass that built it, and so does its memo.
const memo = new WeakMap<ExistingNodeInput, Map<string, StaticFit>>();
const FITS: StaticFit = { taint: undefined, labels: undefined };

export function staticFit(input: ExistingNodeInput, labels: Requirements, pod: PodState): StaticFit {
  let byPod = memo.get(input);
  if (!byPod) memo.set(input, (byPod = new Map()));
  const key = pod.fitKey;
  let fit = byPod.get(key);
  if (!fit) {
    const taint = untolerated(input.taints, pod.tolerations);
    const incompatible = labels.incompatibility(pod.requirements, NO_UNDEFINED);
    fit =
      taint || incompatible
        ? { taint: taint && `did not tolerate taint ${describeTaint(taint)}`, labels: incompatible }
        : FITS;
    byPod.set(key, fit);
  }
  return fit;
}
