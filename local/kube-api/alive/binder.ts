// A simple binder for the local fleet: pending pods go first-fit onto nodes with room, oldest first;
// Volcano gangs (pods annotated with a PodGroup) bind only when at least minMember of them fit at once.
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';
import { allocatableOf, schedulable, take, type Free } from './fit.ts';
import { FirstFit } from './first-fit.ts';

const GROUP_ANNOTATIONS = ['scheduling.k8s.io/group-name', 'scheduling.volcano.sh/group-name'];

export interface BindResult {
  readonly bound: readonly string[];
  readonly unschedulable: readonly string[];
}

const podKey = (p: KubeObject): string => `${String(p.metadata.namespace)}/${String(p.metadata.name)}`;
const groupOf = (p: KubeObject): string | undefined => {
  const a = (p.metadata.annotations ?? {}) as Record<string, string>;
  const g = GROUP_ANNOTATIONS.map((k) => a[k]).find((v) => v);
  return g ? `${String(p.metadata.namespace)}/${g}` : undefined;
};
const isPending = (p: KubeObject): boolean => {
  const phase = (p.status as { phase?: string } | undefined)?.phase;
  return (
    !(p.spec as { nodeName?: string }).nodeName &&
    (phase === undefined || phase === 'Pending') &&
    !p.metadata.deletionTimestamp
  );
};
const terminal = (p: KubeObject): boolean =>
  ['Succeeded', 'Failed'].includes(String((p.status as { phase?: string } | undefined)?.phase));

export function bindPending(emulator: KubeApiEmulator): BindResult {
  const podType = emulator.typeOf('Pod');
  const nodes = emulator.store.all(emulator.typeOf('Node')).filter(schedulable);
  const free = new Map<string, Free>(nodes.map((n) => [String(n.metadata.name), allocatableOf(n)]));
  const pods = emulator.store.all(podType);
  for (const p of pods) {
    const on = free.get(String((p.spec as { nodeName?: string }).nodeName));
    if (on && !terminal(p)) take(on, p);
  }
  const pending = pods
    .filter(isPending)
    .sort(
      (a, b) =>
        String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) ||
        podKey(a).localeCompare(podKey(b)),
    );
  const bound: string[] = [];
  const unschedulable: string[] = [];
  const bind = (pod: KubeObject, nodeName: string): void => {
    const spec = { ...(pod.spec as object), nodeName };
    emulator.store.update(
      podType,
      String(pod.metadata.namespace),
      String(pod.metadata.name),
      { ...pod, spec },
      undefined,
    );
    const fresh = emulator.store.get(podType, String(pod.metadata.namespace), String(pod.metadata.name));
    emulator.store.update(
      podType,
      String(pod.metadata.namespace),
      String(pod.metadata.name),
      { ...fresh, status: { ...(fresh.status as object), phase: 'Running' } },
      'status',
    );
    bound.push(podKey(pod));
  };
  const fit = new FirstFit(nodes, free);
  const gangs = new Map<string, KubeObject[]>();
  for (const pod of pending) {
    const g = groupOf(pod);
    if (g) gangs.set(g, [...(gangs.get(g) ?? []), pod]);
    else {
      const at = fit.place(pod);
      if (at) bind(pod, at);
      else unschedulable.push(podKey(pod));
    }
  }
  for (const [group, members] of gangs) bindGang(emulator, group, members, fit, bind, unschedulable);
  return { bound, unschedulable };
}

/** All or nothing: place tentatively on a copy of the free map; commit only when minMember placed. */
function bindGang(
  emulator: KubeApiEmulator,
  group: string,
  members: KubeObject[],
  fit: FirstFit,
  bind: (pod: KubeObject, node: string) => void,
  unschedulable: string[],
): void {
  const [ns, name] = group.split('/') as [string, string];
  const pgType = emulator.typeOf('PodGroup', 'scheduling.volcano.sh/v1beta1');
  let minMember = members.length;
  let pg: KubeObject | undefined;
  try {
    pg = emulator.store.get(pgType, ns, name);
    minMember = Number((pg.spec as { minMember?: number } | undefined)?.minMember ?? 1);
  } catch {
    // No PodGroup object: every pending member is required.
  }
  // Volcano reports the gang's phase on the PodGroup: Running once bound, Pending while it waits.
  const phase = (value: string, running: number): void => {
    if (pg)
      emulator.store.update(
        pgType,
        ns,
        name,
        { ...pg, status: { ...(pg.status as object), phase: value, running } },
        'status',
      );
  };
  const trial = fit.trial();
  const placed = members.map((m) => [m, trial.place(m)] as const);
  const ok = placed.filter(([, at]) => at !== undefined);
  if (ok.length < minMember) {
    unschedulable.push(...members.map(podKey));
    phase('Pending', 0);
    return;
  }
  for (const [pod, at] of ok) {
    take(fit.room.get(at as string) as Free, pod);
    bind(pod, at as string);
  }
  unschedulable.push(...placed.filter(([, at]) => at === undefined).map(([m]) => podKey(m)));
  phase('Running', ok.length);
}
