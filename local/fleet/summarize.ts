// The contract summary of a run (docs/contract.md, "kraftsman fleet"), every figure counted from what
// happened: samples of the cluster, the handlers' results, the launch invocations, the clouds' worlds, and
// the invariants read from the emulators at the end.
import { fleetCatalog } from './catalog.ts';
import type { FleetEnvironment } from './environment.ts';
import { doubleBooked, nodesWithoutInstance, orphanInstances, strandedTaints } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import { Ledger as LedgerClass } from './ledger.ts';
import type { FleetLog } from './log.ts';
import type { PodLedger } from './pods.ts';
import { skipReasons } from './recorded.ts';
import { convergedMinute } from './report/convergence.ts';
import { emulatorObjects, fleetBound } from './report/fleet-bound.ts';
import type { CensusRow, FleetRun, FleetSample, RunDetails } from './report/model.ts';
import { unprovisionablePods } from './unprovisionable.ts';
import type { Scenario } from './scenarios/index.ts';
import type { FleetCommand, FleetSummary } from './summary.ts';
import type { Wiring } from './wiring.ts';

export interface RunRecord {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly minutes: number;
  readonly upstream: boolean;
  readonly env: FleetEnvironment;
  readonly samples: readonly FleetSample[];
  readonly ledger: Ledger;
  readonly pods: PodLedger;
  readonly log: FleetLog;
  readonly wiring: Wiring;
  /** NodePool-minutes with more nodes disrupting than the pool's budgets allow. */
  readonly overspends: number;
  readonly wallSeconds: number;
  readonly commands: readonly FleetCommand[];
  readonly commandMarkers?: RunDetails['commandMarkers'];
  /** As lifecycle stamped them on the Nodes and claims it took down (interruptions.ts). */
  readonly interruptions: FleetSummary['interruptions'];
  readonly census: readonly CensusRow[];
}

const round = (n: number, places = 2): number => Math.round(n * 10 ** places) / 10 ** places;
const clouds = (n: Readonly<Record<string, number>>) => ({ aws: n.aws ?? 0, gcp: n.gcp ?? 0 });

export function summarize(r: RunRecord): FleetRun {
  const first = r.samples[0];
  const last = r.samples[r.samples.length - 1];
  if (!first || !last) throw new Error('summarize: a run has at least its minute-0 sample');
  const instances = r.ledger.instances();
  const lost = r.pods.lost();
  const gangs = r.wiring.launches.filter((l) => l.gang !== undefined);
  // The pods the last provisioning batch could not place on any offering (its verdicts say why).
  const lastProvision = r.ledger.lastOf('provision', 'unschedulable') ?? 0;
  const floor = fleetBound(emulatorObjects(r.env.kube), fleetCatalog());
  const checks = {
    orphans: orphanInstances(r.env.kube, r.env.ec2.world, r.env.gce.world, r.env.clusterName),
    stranded: strandedTaints(r.env.kube, last.commandsInFlight),
    doubleBooked: doubleBooked(r.env.kube),
    // Instances gone in the last two minutes may still have their Node: lifecycle's next run (after its
    // 1-minute GC grace) deletes it.
    nodesWithoutInstance: nodesWithoutInstance(
      r.env.kube,
      { ec2: r.env.ec2.world, gce: r.env.gce.world },
      r.ledger.goneWithin(2),
    ),
  };
  // The last sample's line and the end's floor come from one function (lpBound); above FLOOR_MAX_PODS the floor
  // is absent and the line is the divisible bound. The larger of two lower bounds is one too.
  const bound = Math.max(last.lowerBoundPerHour, floor?.lpPerHour ?? 0);
  const converged = bound > 0 ? convergedMinute(r.samples, bound) : undefined;
  return {
    summary: {
      scenario: r.scenario.name,
      seed: String(r.seed),
      upstream: r.upstream,
      simulatedMinutes: r.minutes,
      wallSeconds: round(r.wallSeconds, 1),
      cost: {
        startPerHour: round(first.costPerHour),
        endPerHour: round(last.costPerHour),
        lowerBoundPerHour: round(bound),
      },
      nodes: { start: clouds(first.nodesByCloud), end: clouds(last.nodesByCloud) },
      pods: {
        pendingMax: Math.max(...r.samples.map((s) => s.pending)),
        pendingEnd: last.pending,
        unprovisionable: lastProvision,
        lost: lost.count,
      },
      commands: [...r.commands],
      launches: {
        aws: instances.aws.launched,
        gcp: instances.gcp.launched,
        failed: LedgerClass.failedLaunches(r.wiring.invoker),
        gangsLaunched: gangs.filter((g) => g.counts.launched + g.counts.alreadyLaunched > 0).length,
        gangsRefused: gangs.filter((g) => g.counts.insufficientCapacity > 0).length,
      },
      interruptions: [...r.interruptions],
      invariants: {
        strandedTaints: checks.stranded.length,
        orphanInstances: checks.orphans.length,
        lostPods: lost.count,
        budgetOverspends: r.overspends,
      },
    },
    samples: r.samples,
    skipReasons: skipReasons(r.wiring.metrics),
    census: r.census,
    details: {
      minCostPerHour: round(Math.min(...r.samples.map((s) => s.costPerHour))),
      claimsCreated: r.ledger.get('provision.claimsCreated'),
      terminated: { aws: instances.aws.terminated, gcp: instances.gcp.terminated },
      doubleBooked: checks.doubleBooked,
      nodesWithoutInstance: checks.nodesWithoutInstance,
      orphans: checks.orphans,
      stranded: checks.stranded,
      lostOwners: lost.owners.slice(0, 20),
      unprovisionablePods: unprovisionablePods(r.env.kube, 20),
      commandMarkers: r.commandMarkers ?? [],
      commandsInFlightAtEnd: last.commandsInFlight,
      functionsRun: r.wiring.functions.map((f) => f.name),
      invocationFailures: r.ledger.failures.slice(0, 20),
      logCounts: { ...r.log.counts },
      totals: Object.fromEntries(r.ledger.totals),
      ...(floor
        ? { floor: { packingPerHour: round(floor.packingPerHour), unserved: floor.unserved.length } }
        : {}),
      ...(converged === undefined ? {} : { convergedMinute: converged }),
    },
  };
}
