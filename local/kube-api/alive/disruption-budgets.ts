// The disruption controller's part for the local fleet: recompute every PDB's status from the pods it
// selects, so the Eviction API answers 429 exactly when an eviction would break the budget.
import { matchesLabelSelector } from '../selectors.ts';
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';

type IntOrPercent = number | string | undefined;

/**
 * Percentages round up, as the disruption controller does; they apply to the pods selected now (the real
 * controller uses the owner's scale, which the emulator does not model).
 */
const resolve = (v: IntOrPercent, total: number): number | undefined =>
  v === undefined
    ? undefined
    : typeof v === 'number'
      ? v
      : v.endsWith('%')
        ? Math.ceil((Number(v.slice(0, -1)) * total) / 100)
        : Number(v);

const healthy = (p: KubeObject): boolean =>
  (p.status as { phase?: string } | undefined)?.phase === 'Running' &&
  !p.metadata.deletionTimestamp &&
  Boolean((p.spec as { nodeName?: string }).nodeName);

/** A namespace's pods grouped by their label set: a Deployment's replicas share one, so a PDB tests it once. */
interface LabelGroup {
  readonly labels: Record<string, string>;
  expected: number;
  healthy: number;
}

function groupPods(pods: readonly KubeObject[]): Map<string, Map<string, LabelGroup>> {
  const byNs = new Map<string, Map<string, LabelGroup>>();
  for (const p of pods) {
    const ns = String(p.metadata.namespace);
    const labels = (p.metadata.labels ?? {}) as Record<string, string>;
    const sig = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let groups = byNs.get(ns);
    if (!groups) byNs.set(ns, (groups = new Map()));
    let g = groups.get(sig);
    if (!g) groups.set(sig, (g = { labels, expected: 0, healthy: 0 }));
    const phase = String((p.status as { phase?: string } | undefined)?.phase);
    if (!['Succeeded', 'Failed'].includes(phase)) g.expected += 1;
    if (healthy(p)) g.healthy += 1;
  }
  return byNs;
}

export function refreshDisruptionBudgets(emulator: KubeApiEmulator): void {
  const pdbType = emulator.typeOf('PodDisruptionBudget');
  const byNs = groupPods(emulator.store.all(emulator.typeOf('Pod')));
  for (const pdb of emulator.store.all(pdbType)) {
    const spec = (pdb.spec ?? {}) as {
      selector?: never;
      minAvailable?: IntOrPercent;
      maxUnavailable?: IntOrPercent;
    };
    const ns = String(pdb.metadata.namespace);
    let expectedPods = 0;
    let currentHealthy = 0;
    for (const g of byNs.get(ns)?.values() ?? [])
      if (matchesLabelSelector(spec.selector, g.labels)) {
        expectedPods += g.expected;
        currentHealthy += g.healthy;
      }
    const maxUnavailable = resolve(spec.maxUnavailable, expectedPods);
    const desiredHealthy =
      maxUnavailable !== undefined
        ? Math.max(0, expectedPods - maxUnavailable)
        : (resolve(spec.minAvailable, expectedPods) ?? 0);
    const status = {
      ...(pdb.status as object),
      expectedPods,
      currentHealthy,
      desiredHealthy,
      disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
      observedGeneration: pdb.metadata.generation,
    };
    // The disruption controller writes a PDB's status only when it changed (updatePdbStatus): an unchanged
    // write would be a MODIFIED event every minute for every PDB, which every watching function decodes.
    if (JSON.stringify(status) === JSON.stringify(pdb.status)) continue;
    emulator.store.update(pdbType, ns, String(pdb.metadata.name), { ...pdb, status }, 'status');
  }
}
