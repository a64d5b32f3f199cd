// Why an existing node rejects a pod whatever this simulation already placed on it: an untolerated taint, or
// labels the pod's requirements cannot meet. Node inputs are built once per pass and a walk tries the same pod
// shapes against the same nodes candidate after candidate, so the verdicts are memoized per node input and
// pod fit key across the pass's simulations (docs/mechanisms/simulation-copy.md). The memo holds bit codes, not
// messages: a pass holds one verdict per node and pod shape, and a message is built only when one is reported.
import type { ExistingNodeInput } from './nodes.ts';
import type { PodState } from './pod-state.ts';
import { NO_UNDEFINED, type Requirements } from './requirement-set.ts';
import { describeTaint, untolerated } from './taints.ts';

/** Bits of a static verdict: 0 admits the pod. */
export const TAINT = 1;
/** The labels verdict holds only against the node's own labels (nothing narrowed them yet). */
export const LABELS = 2;

// Keyed by the input object: it lives as long as the pass that built it, and so does its memo.
const memo = new WeakMap<ExistingNodeInput, Map<string, number>>();

/** The node's static verdict for the pod (TAINT | LABELS bits); `labels` are the node's own labels as requirements. */
export function staticFit(input: ExistingNodeInput, labels: Requirements, pod: PodState): number {
  let byPod = memo.get(input);
  if (!byPod) memo.set(input, (byPod = new Map()));
  const key = pod.fitKey;
  let fit = byPod.get(key);
  if (fit === undefined) {
    fit =
      (untolerated(input.taints, pod.tolerations) ? TAINT : 0) |
      (labels.incompatibility(pod.requirements, NO_UNDEFINED) !== undefined || noAlternativeFits(labels, pod)
        ? LABELS
        : 0);
    byPod.set(key, fit);
  }
  return fit;
}

/** Whether every volume alternative of the pod conflicts with the node's labels (a node label has one value). */
function noAlternativeFits(labels: Requirements, pod: PodState): boolean {
  const alternatives = pod.info.volumeAlternatives;
  return (
    alternatives !== undefined &&
    alternatives.every((a) => labels.incompatibility(a, NO_UNDEFINED) !== undefined)
  );
}

/** The message of a TAINT verdict. */
export function taintReason(input: ExistingNodeInput, pod: PodState): string {
  const taint = untolerated(input.taints, pod.tolerations);
  return taint ? `did not tolerate taint ${describeTaint(taint)}` : 'did not tolerate a taint';
}
