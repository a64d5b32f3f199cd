// A small fleet run for report tests: a ramp then a decay of cost, nodes on two clouds, commands, a census.
import type { FleetRun } from '../../local/fleet/report/model.ts';

export function sampleRun(upstream: boolean, minutes = 30): FleetRun {
  const samples = Array.from({ length: minutes + 1 }, (_, m) => {
    const load = m < 10 ? m / 10 : Math.max(0.3, 1 - (m - 10) / 25);
    const aws = Math.round(20 + 60 * load);
    const gcp = Math.round(10 + 40 * load);
    return {
      minute: m,
      costPerHour: (aws + gcp) * 4.1 * (upstream ? 1.1 : 1),
      lowerBoundPerHour: (aws + gcp) * 3.6,
      nodesByCloud: { aws, gcp },
      nodesByPool: { training: Math.round(aws * 0.4), inference: Math.round(gcp * 0.5) },
      pending: m < 10 ? 400 - 40 * m : 0,
      coverage: Math.min(1, (m % 12) / 11),
      commandsInFlight: m % 5 === 0 ? 1 : 0,
    };
  });
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  return {
    details: {
      minCostPerHour: Math.min(...samples.map((s) => s.costPerHour)),
      claimsCreated: 12,
      terminated: { aws: 42, gcp: 28 },
      doubleBooked: [],
      nodesWithoutInstance: [],
      orphans: [],
      stranded: [],
      // upstream's sample loses two pods of one owner: the report names them under an "Unhealthy" verdict
      lostOwners: upstream ? ['ml/trainer-0'] : [],
      unprovisionablePods: [
        { pod: 'ml/h200-0', reason: 'NodePool gpu: limit nvidia.com/gpu 16 would be exceeded (in use 16)' },
      ],
      commandMarkers: [
        { minute: 3, label: 'replace ip-10-0-1-7 (completed)' },
        { minute: 5, label: 'delete gke-node-3 (rolled-back)' },
      ],
      commandsInFlightAtEnd: 1,
      functionsRun: ['provision', 'lifecycle'],
      invocationFailures: [],
      logCounts: { debug: 0, info: 10, warn: 0, error: 0 },
      totals: { 'provision.claimsCreated': 12 },
    },
    summary: {
      scenario: 'decay',
      seed: '42',
      upstream,
      simulatedMinutes: minutes,
      wallSeconds: 3.2,
      cost: {
        startPerHour: first.costPerHour,
        endPerHour: last.costPerHour,
        lowerBoundPerHour: last.lowerBoundPerHour,
      },
      nodes: { start: { aws: 80, gcp: 50 }, end: { aws: 38, gcp: 22 } },
      pods: { pendingMax: 400, pendingEnd: 1, unprovisionable: 12, lost: upstream ? 2 : 0 },
      commands: [
        {
          id: 'cmd-1',
          method: 'single-node-consolidation',
          decision: 'replace',
          candidates: ['ip-10-0-1-7'],
          replacements: ['claim-a'],
          savingsPerHour: 3.2,
          outcome: 'completed',
          crossCloud: false,
        },
        {
          id: 'cmd-<2>',
          method: 'emptiness',
          decision: 'delete',
          candidates: ['gke-node-3'],
          replacements: [],
          savingsPerHour: 1.1,
          outcome: 'rolled-back',
          crossCloud: false,
        },
      ],
      launches: { aws: 30, gcp: 20, failed: 1, gangsLaunched: 2, gangsRefused: 1 },
      interruptions: [],
      invariants: { strandedTaints: 0, orphanInstances: 0, lostPods: upstream ? 2 : 0, budgetOverspends: 0 },
    },
    samples,
    skipReasons: { multiple_replacements_required: 4, pdb_blocked: 2 },
    census: [
      {
        pool: 'training',
        candidates: 12,
        counts: { delete: 2, replace: 1, none: 9 },
        at: '2026-12-01T12:10:00.000Z',
      },
    ],
  };
}
