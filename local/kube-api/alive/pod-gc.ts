// kube-controller-manager's pod garbage collector (PodGC) for the local fleet: pods bound to a Node that no
// longer exists, once that has held for the quarantine, are marked Failed with a DisruptionTarget condition and
// force-deleted, as are terminating pods no node will ever confirm (unscheduled, or on an out-of-service node).
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';

/** PodGC's quarantine: how long a missing node may take to show up before its pods count as orphaned. */
export const POD_GC_QUARANTINE_MS = 40_000;
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

/** What one collection deleted, by PodGC's reason, as `namespace/name`. */
export interface PodGcResult {
  readonly orphaned: readonly string[];
  readonly terminatingOutOfService: readonly string[];
  readonly terminatingUnscheduled: readonly string[];
}

interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/**
 * Missing node name → the instant its quarantine ends, per emulator. PodGC keeps this in a delaying queue:
 * adding a name already waiting keeps its earlier deadline, so the quarantine runs from when the pods were
 * first seen without their node.
 */
const quarantines = new WeakMap<KubeApiEmulator, Map<string, number>>();

const keyOf = (p: KubeObject): string => `${String(p.metadata.namespace)}/${String(p.metadata.name)}`;
const nodeNameOf = (p: KubeObject): string => String((p.spec as { nodeName?: string }).nodeName ?? '');
const phaseOf = (p: KubeObject): string | undefined => (p.status as { phase?: string } | undefined)?.phase;
const ready = (n: KubeObject): boolean =>
  ((n.status as { conditions?: PodCondition[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );
const outOfService = (n: KubeObject): boolean =>
  ((n.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).some(
    (t) => t.key === OUT_OF_SERVICE,
  );

/**
 * One PodGC run (the controller runs every 20 s; the fleet calls this once a simulated minute). Terminal pods
 * over the controller's threshold (12,500 by default) are not collected: the fleet never gets near it.
 */
export function collectPodGarbage(emulator: KubeApiEmulator): PodGcResult {
  const now = emulator.now().getTime();
  const nodes = new Map(emulator.store.all(emulator.typeOf('Node')).map((n) => [String(n.metadata.name), n]));
  const pods = emulator.store.all(emulator.typeOf('Pod'));
  const terminatingOutOfService = pods.filter((p) => {
    const node = nodes.get(nodeNameOf(p));
    return p.metadata.deletionTimestamp && node && !ready(node) && outOfService(node);
  });
  const gone = deletedNodes(emulator, nodes, pods, now);
  const orphaned = pods.filter((p) => gone.has(nodeNameOf(p)));
  const terminatingUnscheduled = pods.filter((p) => p.metadata.deletionTimestamp && !nodeNameOf(p));
  for (const p of terminatingOutOfService) markFailedAndDelete(emulator, p, now);
  for (const p of orphaned)
    markFailedAndDelete(emulator, p, now, {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    });
  for (const p of terminatingUnscheduled) markFailedAndDelete(emulator, p, now);
  return {
    orphaned: orphaned.map(keyOf),
    terminatingOutOfService: terminatingOutOfService.map(keyOf),
    terminatingUnscheduled: terminatingUnscheduled.map(keyOf),
  };
}

/** Node names whose pods are orphaned now: missing when first seen and still missing once quarantined. */
function deletedNodes(
  emulator: KubeApiEmulator,
  nodes: ReadonlyMap<string, KubeObject>,
  pods: readonly KubeObject[],
  now: number,
): Set<string> {
  let queue = quarantines.get(emulator);
  if (!queue) quarantines.set(emulator, (queue = new Map()));
  for (const p of pods) {
    const name = nodeNameOf(p);
    if (name && !nodes.has(name) && !queue.has(name)) queue.set(name, now + POD_GC_QUARANTINE_MS);
  }
  const gone = new Set<string>();
  for (const [name, until] of queue) {
    if (until > now) continue;
    // Out of the queue either way; a node that is still missing and still has pods comes back next run.
    queue.delete(name);
    if (!nodes.has(name)) gone.add(name);
  }
  return gone;
}

/**
 * PodGC's markFailedAndDeletePod: a pod not yet terminal gets phase Failed (and the condition, replacing one of
 * the same type) in a status write first — no kubelet will ever report it — then a deletion with grace 0.
 */
function markFailedAndDelete(
  emulator: KubeApiEmulator,
  pod: KubeObject,
  now: number,
  condition?: PodCondition,
) {
  const podType = emulator.typeOf('Pod');
  const ns = String(pod.metadata.namespace);
  const name = String(pod.metadata.name);
  const phase = phaseOf(pod);
  if (phase !== 'Succeeded' && phase !== 'Failed') {
    const status = (pod.status ?? {}) as { conditions?: PodCondition[] };
    const conditions = [...(status.conditions ?? [])];
    if (condition) {
      const i = conditions.findIndex((c) => c.type === condition.type);
      const changed = i < 0 || conditions[i]?.status !== condition.status;
      const at = changed
        ? new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')
        : conditions[i]?.lastTransitionTime;
      const next = { ...condition, ...(at ? { lastTransitionTime: at } : {}) };
      if (i < 0) conditions.push(next);
      else conditions[i] = next;
    }
    const failed = { ...status, phase: 'Failed', ...(conditions.length ? { conditions } : {}) };
    emulator.store.update(podType, ns, name, { ...pod, status: failed }, 'status');
  }
  // The emulator's store removes a terminating object without finalizers on any write, the status write too.
  if (emulator.store.find(podType, ns, name))
    emulator.store.delete(podType, ns, name, { gracePeriodSeconds: 0 });
}
