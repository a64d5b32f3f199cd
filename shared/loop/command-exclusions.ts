// What the store's open commands and nominations keep out of a pass, validation or census: an open command's
// candidates count as marked for deletion, and its replacements count as nominated — their capacity is spoken
// for by the candidates' pods until those move, as Karpenter's provisioner nominates a replacement for the
// pods it will take (a nominated node is never a candidate). See docs/functions/admit.md.
import { podKey } from '../model/pod.ts';
import { isActive } from '../state/pods.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { PassState } from '../ports/state-store/records.ts';

export interface CommandExclusions {
  /** Node names an open command names as candidates. */
  readonly claimedByCommands: ReadonlySet<string>;
  /** Node names nominated for pending pods, or backing an open command's replacement NodeClaim. */
  readonly nominated: ReadonlySet<string>;
}

export function commandExclusions(
  state: Pick<PassState, 'openCommands' | 'nominations'>,
  snapshot: ClusterSnapshot,
): CommandExclusions {
  // Karpenter's StateNode.Nominated() lasts one nomination window (2 × the batch max duration, 20 s) and the
  // provisioner renews it for as long as it still places a pending pod there. The store keeps a nomination far
  // longer (provision's own bookkeeping of in-flight capacity), so it shields a node only while its pod is still
  // pending: once the pod is bound, deleted or finished, the node is judged like any other.
  const pending = new Set(
    state.nominations.size
      ? snapshot.objects.pods.filter((p) => !p.spec.nodeName && isActive(p)).map(podKey)
      : [],
  );
  const nominated = new Set<string>();
  for (const n of state.nominations.values())
    if (n.nodeName && pending.has(n.podKey)) nominated.add(n.nodeName);
  const replacements = new Set(state.openCommands.flatMap((c) => c.replacements));
  if (replacements.size > 0)
    for (const n of snapshot.nodes)
      if (n.claim && replacements.has(n.claim.metadata.name)) nominated.add(n.name);
  return { claimedByCommands: new Set(state.openCommands.flatMap((c) => c.candidates)), nominated };
}
