// A gang the follow re-places (docs/mechanisms/delta-simulation.md, points 4 and 6): whether a member sent to the
// claims surely lands on a new one (against the limits the base had left before the gang), and its one-cloud rule.
import { CLOUD } from '../model/labels.ts';
import { NODES, ONE_NODE, type ResourceList } from '../model/resources.ts';
import { newClaimAccepts } from '../scheduling/fit-check.ts';
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
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

/** Where a gang member landed in the follow: a node, its base claim, or a claim other than its base one. */
export type Landed = { readonly node: string } | { readonly claim: 'base' | 'other' };

/**
 * The clouds a gang's members landed on, member by member (docs/mechanisms/delta-simulation.md, point 6). The
 * scheduler keeps a gang on one cloud: a placement on two is undone and tried again on each cloud alone
 * (place-gang.ts), and one whose claim's node class asks for one zone is placed again one zone at a time
 * (place-gang-zone.ts); the follow places members one by one and follows neither.
 */
export class GangClouds {
  private readonly clouds = new Set<string>();
  constructor(
    private readonly base: BaseSolution,
    private readonly inputs: ReadonlyMap<string, ExistingNodeInput>,
  ) {}

  /** Adds where the member landed; true when the scheduler would place the gang again (the follow falls back). */
  add(m: PodState, at: Landed): boolean {
    if ('node' in at) this.known(this.inputs.get(at.node)?.labels[CLOUD]);
    // the base's claim: a placement the scheduler kept, on the gang's one cloud
    else if (at.claim === 'base') this.known(this.base.claimOf(m.key)?.template.cloud);
    else {
      // a claim the base did not give it: the cloud of any pool whose new claim would take it (a claim of the pool
      // the run opened has narrower requirements, more requests and fewer types: it takes no more), and such a
      // pool asking for one zone re-places the gang
      const allow = this.base.options.allowUndefined;
      for (const t of this.base.input.templates) {
        if (!newClaimAccepts(t, t.instanceTypes, m, allow)) continue;
        if (t.oneZoneGangs === true) return true;
        this.clouds.add(t.cloud);
      }
    }
    return this.clouds.size > 1;
  }

  // a node without the cloud label counts for no cloud, as the scheduler's cloudOf
  private known(cloud: string | undefined): void {
    if (cloud !== undefined) this.clouds.add(cloud);
  }
}
