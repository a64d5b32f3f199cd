// Running gangs as disruption sees them (docs/mechanisms/gangs.md, "Disruption"): which nodes host bound members
// of a gang that is running (at least its minimum bound), so no voluntary disruption takes some of them and
// leaves the others. Gang identity and minimums come from gangName and the scheduling view's gangs map.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { gangMinimums, gangOf, perNodeGangs } from '../state/gangs.ts';
import { isActive } from '../state/pods.ts';

/** The running gangs a node hosts members of, and every node that must leave with it (itself included). */
export interface GangTies {
  readonly gangs: readonly string[];
  readonly nodes: readonly string[];
}

export interface GangIndex {
  /** Ties of a node hosting a member of a running gang spread over more than this node; else undefined. */
  tiesOf(node: string): GangTies | undefined;
  /** A running gang some of whose nodes are in `nodes` and some not, with the nodes left out; else undefined. */
  split(nodes: Iterable<string>): { readonly gang: string; readonly left: readonly string[] } | undefined;
}

export const NO_GANGS: GangIndex = { tiesOf: () => undefined, split: () => undefined };

/**
 * Minimums from the gangs map (gangMinimums). A gang with no entry (members naming a PodGroup the snapshot lacks)
 * has minimum 1, as provisioning assumes: any bound member makes it running.
 */
export function gangIndex(snapshot: ClusterSnapshot): GangIndex {
  const minimums = gangMinimums(snapshot.objects);
  const perNode = perNodeGangs(snapshot.objects);
  const bound = new Map<string, number>();
  const min = new Map<string, number>();
  const nodesOf = new Map<string, Set<string>>();
  for (const n of [...snapshot.nodes, ...snapshot.inFlight]) {
    for (const p of n.pods) {
      const gang = isActive(p) ? gangOf(p, minimums) : undefined;
      if (gang === undefined) continue;
      const key = gang.name;
      min.set(key, gang.minMember);
      bound.set(key, (bound.get(key) ?? 0) + 1);
      let set = nodesOf.get(key);
      if (!set) nodesOf.set(key, (set = new Set()));
      set.add(n.name);
    }
  }
  // Volcano's minAvailable: below its minimum a gang is not running (it waits for members), so nothing is split.
  const running = new Map<string, ReadonlySet<string>>();
  for (const [key, nodes] of nodesOf) {
    if (perNode(key) || (bound.get(key) ?? 0) < (min.get(key) ?? 1) || nodes.size < 2) continue;
    running.set(key, nodes);
  }
  const ties = closures(running);
  return {
    tiesOf: (node) => ties.get(node),
    split(nodes) {
      const taken = new Set(nodes);
      for (const [gang, members] of running) {
        const inside = [...members].filter((n) => taken.has(n));
        if (inside.length === 0 || inside.length === members.size) continue;
        return { gang, left: [...members].filter((n) => !taken.has(n)).sort() };
      }
      return undefined;
    },
  };
}

/** Nodes joined by running gangs, transitively (two gangs sharing a node leave together): union-find. */
function closures(running: ReadonlyMap<string, ReadonlySet<string>>): Map<string, GangTies> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) ?? r;
    parent.set(x, r);
    return r;
  };
  for (const nodes of running.values()) {
    const [first, ...rest] = [...nodes];
    if (first === undefined) continue;
    if (!parent.has(first)) parent.set(first, first);
    for (const n of rest) {
      if (!parent.has(n)) parent.set(n, n);
      parent.set(find(n), find(first));
    }
  }
  const groups = new Map<string, { gangs: Set<string>; nodes: Set<string> }>();
  for (const [gang, nodes] of running) {
    for (const n of nodes) {
      const root = find(n);
      let g = groups.get(root);
      if (!g) groups.set(root, (g = { gangs: new Set(), nodes: new Set() }));
      g.gangs.add(gang);
      g.nodes.add(n);
    }
  }
  const out = new Map<string, GangTies>();
  for (const g of groups.values()) {
    const ties = { gangs: [...g.gangs].sort(), nodes: [...g.nodes].sort() };
    for (const n of g.nodes) out.set(n, ties);
  }
  return out;
}
