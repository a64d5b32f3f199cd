// A topology derived from a pass's template (docs/mechanisms/delta-simulation.md, "Its cost") is the topology one
// built over all its pending pods would be: on random fleets (GPUs and EFA, gangs, zone and hostname spread,
// anti-affinity, affinity, pools on both clouds), the backlog is the template's and a candidate's pods are the
// derived run's own. Every pod's deciding and counting groups, every group's counts, and every pod's topology
// verdict on every node must match — before any placement and after a run of placements through both.
// Prints the seed (replay: KRAFTSMAN_SEED=<seed>).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { Journal } from '../../../shared/scheduling/journal.ts';
import type { ExistingNodeInput } from '../../../shared/scheduling/nodes.ts';
import { PodState } from '../../../shared/scheduling/pod-state.ts';
import { labelRequirements } from '../../../shared/scheduling/requirement-set.ts';
import { groupId, Topology } from '../../../shared/scheduling/topology.ts';
import type { SchedulingInput } from '../../../shared/scheduling/scheduler.ts';
import { NOW, snapshotOf } from '../../unit/disruption/fixtures.ts';
import { deltaCatalog, fleetArb, fleetObjects } from '../disruption/delta-fleets.ts';
import { propertyRuns } from '../seed.ts';

/** Pod × node verdicts compared per fleet at most (the large fleets have a few hundred pods). */
const MAX_PAIRS = 4000;

const sorted = (xs: readonly string[]) => [...xs].sort();

function topologyOf(input: SchedulingInput, pending: readonly PodState[], template?: Topology): Topology {
  const options = { reachableDomainsOnly: true, allowUndefined: new Set<string>() };
  return new Topology(
    input.universe,
    input.namespaces,
    input.bound,
    pending,
    options,
    new Journal(),
    input.topologyShare,
    template,
  );
}

/** Everything a run reads of its topology, as comparable text. */
function reading(t: Topology, pods: readonly PodState[], nodes: readonly ExistingNodeInput[]) {
  const groups = [...t.groupKeys()].map(([id, key]) => ({
    id,
    key,
    counts: [...(t.countsOf(id) ?? new Map<string, number>())].sort(([a], [b]) => (a < b ? -1 : 1)),
  }));
  groups.sort((a, b) => (a.id < b.id ? -1 : 1));
  const perPod = pods.map((p) => ({
    pod: p.key,
    deciding: sorted(t.deciding(p.key)),
    counting: sorted(t.counting(p.key)),
    excluded: sorted([...(t.excludedHostnames(p) ?? [])]),
  }));
  const step = Math.max(1, Math.ceil((pods.length * nodes.length) / MAX_PAIRS));
  const verdicts: string[] = [];
  let i = 0;
  for (const p of pods)
    for (const n of nodes) {
      if (i++ % step !== 0) continue;
      const r = t.addRequirements(p, n.taints, labelRequirements(n.labels));
      verdicts.push(`${p.key}@${n.name}: ${typeof r === 'string' ? r : r.fingerprint()}`);
    }
  return { groups, perPod, verdicts };
}

/** Inverse groups the derived run has and its template does not (its own pods' required anti-affinity). */
function addedInverse(template: Topology, derived: Topology): number {
  const inverse = groupId(true, '');
  const had = new Set([...template.groupKeys()].map(([id]) => id));
  return [...derived.groupKeys()].filter(([id]) => id.startsWith(inverse) && !had.has(id)).length;
}

/** Places every pod on the first node both runs admit it to, recording it in both; how many were placed. */
function placeInBoth(
  fresh: Topology,
  derived: Topology,
  pods: readonly PodState[],
  nodes: readonly ExistingNodeInput[],
): number {
  let placed = 0;
  for (const p of pods)
    for (const n of nodes) {
      const labels = labelRequirements(n.labels);
      const a = fresh.addRequirements(p, n.taints, labels);
      const b = derived.addRequirements(p, n.taints, labels);
      expect(typeof b === 'string' ? b : b.fingerprint()).toEqual(
        typeof a === 'string' ? a : a.fingerprint(),
      );
      if (typeof a === 'string' || typeof b === 'string') continue;
      fresh.record(p.info, n.taints, a);
      derived.record(p.info, n.taints, b);
      placed++;
      break;
    }
  return placed;
}

describe('topology from a template', () => {
  it('reads as the topology built over all its pending pods, before and after placements', () => {
    const types = deltaCatalog();
    let derivedRuns = 0;
    let placed = 0;
    let withAddedInverse = 0;
    fc.assert(
      fc.property(fleetArb, (f) => {
        const snapshot = snapshotOf(fleetObjects(f), types);
        const ctx = passContext(snapshot, NOW, passOptions({}));
        const view = ctx.view();
        const backlog = ctx.backlog(view);
        const candidate = buildCandidates({ snapshot, pdbs: ctx.pdbs(), now: NOW }).candidates.find(
          (c) => c.reschedulable.length > 0,
        );
        if (!candidate) return;
        const own = candidate.reschedulable.map((p) => view.pendingPod(p));
        const input = view.input([...backlog, ...own], new Set([candidate.name, ...ctx.expired]));
        // the candidate's pods as the derived run's own; then half the backlog, whose terms the template lacks
        const halves = [backlog.filter((_, i) => i % 2 === 0), backlog.filter((_, i) => i % 2 === 1)];
        const splits = [
          { templatePods: backlog, extra: own },
          { templatePods: halves[0] ?? [], extra: [...(halves[1] ?? []), ...own] },
        ];
        for (const { templatePods, extra } of splits) {
          const templateStates = templatePods.map((p) => new PodState(p, true));
          const extraStates = extra.map((p) => new PodState(p, true));
          const all = [...templateStates, ...extraStates];
          const template = topologyOf(view.input(templatePods, ctx.expired), templateStates);
          const fresh = topologyOf(input, all);
          const derived = topologyOf(input, extraStates, template);
          derivedRuns++;
          if (addedInverse(template, derived) > 0) withAddedInverse++;
          expect(reading(derived, all, input.existing)).toEqual(reading(fresh, all, input.existing));
          placed += placeInBoth(fresh, derived, all, input.existing);
          expect(reading(derived, all, input.existing)).toEqual(reading(fresh, all, input.existing));
        }
      }),
      propertyRuns(),
    );
    console.log(
      `topology template: ${derivedRuns} derived runs compared (${withAddedInverse} with inverse groups the template lacks), ${placed} placements recorded in both`,
    );
    expect(derivedRuns).toBeGreaterThan(0);
    expect(placed).toBeGreaterThan(0);
    expect(withAddedInverse).toBeGreaterThan(0);
  }, 180_000);
});
