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

export function refreshDisruptionBudgets(emulator: KubeApiEmulator): void {
  const pdbType = emulator.typeOf('PodDisruptionBudget');
  const pods = emulator.store.all(emulator.typeOf('Pod'));
  for (const pdb of emulator.store.all(pdbType)) {
    const spec = (pdb.spec ?? {}) as {
      selector?: never;
      minAvailable?: IntOrPercent;
      maxUnavailable?: IntOrPercent;
    };
    const ns = String(pdb.metadata.namespace);
    const selected = pods.filter(
      (p) =>
        p.metadata.namespace === ns &&
        matchesLabelSelector(spec.selector, (p.metadata.labels ?? {}) as Record<string, string>),
    );
    const expectedPods = selected.filter(
      (p) => !['Succeeded', 'Failed'].includes(String((p.status as { phase?: string } | undefined)?.phase)),
    ).length;
    const currentHealthy = selected.filter(healthy).length;
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
    emulator.store.update(pdbType, ns, String(pdb.metadata.name), { ...pdb, status }, 'status');
  }
}
