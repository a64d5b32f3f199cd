// Capacity already coming, as one provisioning batch schedules against it (docs/mechanisms/provisioning-demand.md):
// a launched claim is an existing node with the room its covered pods leave, a claim the launcher has not
// answered yet counts with the least its instance types guarantee, and the nodes that are leaving take nothing.
import { INSTANCE_TYPE } from '../model/labels.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { addInto, EMPTY, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import { markForDeletion } from '../state/mark-for-deletion.ts';
import type { ClusterSnapshot, StateNode } from '../state/snapshot.ts';
import type { Demand } from './demand.ts';

/**
 * The snapshot a batch schedules on: leaving nodes marked for deletion, each covered pod counted as bound to the
 * capacity it waits for (its requests, ports, volumes and topology there), and every claim not launched yet
 * given the allocatable all of its instance types have.
 */
export function batchCapacity(snapshot: ClusterSnapshot, demand: Demand): ClusterSnapshot {
  const marked = markForDeletion(snapshot, demand.leavingNodes);
  const hold = (n: StateNode): StateNode => {
    const pods = demand.held.get(n.name);
    if (!pods?.length) return n;
    const requests: MutableResourceList = { ...n.podRequests };
    for (const p of pods) addInto(requests, snapshot.podRequests.get(podKey(p)) ?? EMPTY);
    return { ...n, pods: [...n.pods, ...pods.map(asBound(n.name))], podRequests: requests };
  };
  const inFlight = marked.inFlight.map((n) => hold(unlaunched(n, snapshot.instanceTypesByName)));
  return { ...marked, nodes: marked.nodes.map(hold), inFlight };
}

/** A covered pod as it will be once bound: on that node (a pod of a leaving node moves there). */
const asBound =
  (node: string) =>
  (p: Pod): Pod =>
    p.spec.nodeName === node ? p : { ...p, spec: { ...p.spec, nodeName: node } };

/**
 * Karpenter waits for every claim to be launched before it schedules (cluster.Synced); kraftsman's launcher runs
 * asynchronously, so a claim without a launch answer yet counts with the allocatable each of its instance types
 * has at least — never more room than it will have, and never a second claim for pods that fit it.
 */
function unlaunched(n: StateNode, types: ReadonlyMap<string, InstanceType>): StateNode {
  const claim = n.claim;
  if (!claim || claim.status?.allocatable || Object.keys(n.allocatable).length > 0) return n;
  const options = instanceTypeOptions(claim, types);
  if (options.length === 0) return n;
  return { ...n, allocatable: leastOf(options.map((t) => t.allocatable)) };
}

function instanceTypeOptions(claim: NodeClaim, types: ReadonlyMap<string, InstanceType>): InstanceType[] {
  const r = claim.spec.requirements.find((x) => x.key === INSTANCE_TYPE && x.operator === 'In');
  const names = r?.values ?? [];
  const out = names.map((name) => types.get(name));
  // a type the catalog no longer lists has unknown room: the claim's is unknown too
  return out.every((t) => t !== undefined) ? (out as InstanceType[]) : [];
}

/** Per resource, the least any list has (a resource one list lacks is 0, so it is left out). */
function leastOf(lists: readonly ResourceList[]): ResourceList {
  const [first, ...rest] = lists;
  const out: MutableResourceList = { ...first };
  for (const l of rest)
    for (const k of Object.keys(out)) {
      const v = l[k];
      if (v === undefined) delete out[k];
      else out[k] = Math.min(out[k] as number, v);
    }
  return out;
}
