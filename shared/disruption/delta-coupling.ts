// When a candidate's delta is coupled to the backlog through topology, so that the delta alone cannot say what
// the full simulation would do (docs/mechanisms/delta-simulation.md, point 4). The full simulation decides every
// pod in queue order; the delta is exact only if (1) every moved pod sees the topology counts it would see there —
// no backlog pod it counts was placed before it — and (2) every backlog pod decided before the last moved pod
// sees the counts the base saw: the pods that left the candidate landed in the same domain of the group's key
// (hostname spread and anti-affinity only grow more restrictive on the new node, which the walk already froze).
import { HOSTNAME } from '../model/labels.ts';
import type { Pod } from '../model/pod.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { Labels } from '../scheduling/selector.ts';
import type { GroupSpec } from '../scheduling/topology-group.ts';
import type { BaseSolution } from './base-solution.ts';
import { inverseGroupsOf, selects } from './delta-groups.ts';

/** A pod the delta moves: one of the candidate's, or a backlog pod the base had put on the candidate. */
export interface Moved {
  readonly state: PodState;
  readonly time: number;
  readonly kind: 'own' | 'backlog';
  /** The node the delta put it on, and its labels. */
  readonly node: string;
  readonly to: Labels;
}

export interface CouplingInput {
  readonly base: BaseSolution;
  readonly namespaces: ReadonlyMap<string, Labels>;
  /** Labels of the candidate node. */
  readonly from: Labels;
  /** Every pod bound to the candidate, moving or not. */
  readonly bound: readonly Pod[];
  readonly moved: readonly Moved[];
  /** Pods the delta simulated in place (moved, and backlog pods replayed on their base nodes). */
  readonly replayed: ReadonlySet<string>;
  /** The time of the last moved pod of the candidate's own: after it nothing the command needs can change. */
  readonly until: number;
}

export function topologyCoupled(x: CouplingInput): boolean {
  const movedKeys = new Set(x.moved.map((m) => m.state.key));
  return seesEarlierBacklog(x) || changesBacklogCounts(x, movedKeys) || losesDomain(x);
}

// (1) A moved pod's own groups, and inverse groups of backlog owners that select it, must count no backlog pod
// placed before it that the delta did not replay: the delta's topology has none of those.
function seesEarlierBacklog(x: CouplingInput): boolean {
  const earlier = (list: readonly { key: string; placed: number }[], time: number) =>
    list.some((t) => t.placed < time && !x.replayed.has(t.key));
  for (const m of x.moved) {
    for (const spec of x.base.groupsOf(m.state).owned)
      if (earlier(x.base.selected(spec), m.time)) return true;
    for (const g of x.base.inverseGroups)
      if (selects(g.spec, m.state.info) && earlier(g.owners, m.time)) return true;
  }
  return false;
}

type Change =
  | {
      readonly kind: 'gone';
      readonly namespace: string;
      readonly labels: Labels;
      readonly inverse: GroupSpec[];
    }
  | {
      readonly kind: 'own' | 'backlog';
      readonly namespace: string;
      readonly labels: Labels;
      readonly inverse: readonly GroupSpec[];
      readonly time: number;
      readonly node: string;
      readonly to: Labels;
    };

// (2) Backlog pods decided before `until` must see the counts the base saw, in every group that counts a pod
// that left the candidate (its own groups and the inverse groups such a pod imposes).
function changesBacklogCounts(x: CouplingInput, movedKeys: ReadonlySet<string>): boolean {
  const changes: Change[] = x.moved.map((m) => ({
    kind: m.kind,
    namespace: m.state.info.namespace,
    labels: m.state.info.labels,
    inverse: x.base.groupsOf(m.state).inverse,
    time: m.time,
    node: m.node,
    to: m.to,
  }));
  for (const p of x.bound) {
    const key = `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
    if (movedKeys.has(key)) continue;
    const namespace = p.metadata.namespace ?? 'default';
    const terms = p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    changes.push({
      kind: 'gone',
      namespace,
      labels: p.metadata.labels ?? {},
      inverse: inverseGroupsOf({ namespace }, terms, x.namespaces),
    });
  }
  const affected = (spec: GroupSpec, c: Change, owners: readonly BacklogPod[]) =>
    owners.some((o) => o.decided < x.until && !movedKeys.has(o.key) && !sameCounts(spec, c, o, x.from));
  for (const c of changes) {
    for (const g of x.base.ownedGroups) if (selects(g.spec, c) && affected(g.spec, c, g.owners)) return true;
    for (const spec of c.inverse) if (affected(spec, c, x.base.selected(spec))) return true;
  }
  return false;
}

interface BacklogPod {
  readonly key: string;
  readonly decided: number;
  readonly node: string | undefined;
}

/** Whether a backlog pod sees the same counts in `spec` despite the change, as far as its placement goes. */
function sameCounts(spec: GroupSpec, c: Change, o: BacklogPod, from: Labels): boolean {
  const decided = o.decided;
  if (spec.key === HOSTNAME) {
    // only the candidate's own hostname lost the pod, and no backlog pod decided here lands on the candidate;
    // the new node gains it: that attracts under affinity, and under spread or anti-affinity it can turn away
    // a backlog pod the base put on that very node
    if (c.kind === 'gone' || decided < c.time) return true;
    return spec.type !== 'affinity' && o.node !== c.node;
  }
  if (c.kind === 'gone') return false;
  // a candidate's pod counted at the candidate until it moves; a backlog pod is counted nowhere until placed
  if (decided < c.time) return c.kind === 'backlog';
  return from[spec.key] === c.to[spec.key];
}

// The candidate's labels leave the domain universe with it unless another node carries them.
function losesDomain(x: CouplingInput): boolean {
  const keys = new Set<string>();
  for (const g of [...x.base.ownedGroups, ...x.base.inverseGroups])
    if (g.owners.some((o) => o.decided < x.until)) keys.add(g.spec.key);
  for (const key of keys) {
    const v = x.from[key];
    if (key !== HOSTNAME && v !== undefined && x.base.nodesWith(key, v) < 2) return true;
  }
  return false;
}
