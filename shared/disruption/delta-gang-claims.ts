// Whether a member of a gang the base placed whole surely lands on a new claim when the follow sends it to the
// claims (docs/mechanisms/delta-simulation.md, point 3): against the limits the base had left before the gang.
import { NODES, ONE_NODE, type ResourceList } from '../model/resources.ts';
import { newClaimAccepts } from '../scheduling/fit-check.ts';
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { NodeClaimTemplate } from '../scheduling/template.ts';
import type { BaseSolution } from './base-solution.ts';

/** Some template takes the member on a new claim, `before` members having gone to the claims ahead of it. */
export function claimLands(b: BaseSolution, m: PodState, record: GangRecord, before: number): boolean {
  return b.input.templates.some((t) => {
    const left = record.remaining.get(t.nodePool);
    const types = left ? surelyWithin(t, left, before) : t.instanceTypes;
    return newClaimAccepts(t, types, m, b.options.allowUndefined);
  });
}

/** The template's types within `left` even after `claims` more claims of its largest type (subtractMax). */
function surelyWithin(t: NodeClaimTemplate, left: ResourceList, claims: number): InstanceType[] {
  const worst: Record<string, number> = {};
  for (const k in left) {
    const l = left[k] as number;
    if (l >= Number.MAX_SAFE_INTEGER) continue; // a saturated limit stays unlimited
    // every claim is one node (the scheduler's nodesExhausted and subtractMax)
    let max = k === NODES ? ONE_NODE : 0;
    for (const it of t.instanceTypes) max = Math.max(max, it.capacity[k] ?? 0);
    worst[k] = l - claims * max;
  }
  if (worst[NODES] !== undefined && worst[NODES] < ONE_NODE) return [];
  return t.instanceTypes.filter((it) => {
    for (const k in worst) if (k !== NODES && (it.capacity[k] ?? 0) > (worst[k] as number)) return false;
    return true;
  });
}
