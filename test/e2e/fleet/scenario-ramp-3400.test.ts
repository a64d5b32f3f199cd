// The `ramp-3400` scenario's two outcomes, end to end on the same generator scaled down (30 nodes, a backlog
// of 100; the full ramp is a benchmark, not a test): every pending pod that can be provisioned gets a node —
// what stays pending is exactly the generator's unprovisionable pods (B200 and H200 workers no NodePool offers)
// — and the drift an operator's NodePool edit causes is admitted while the backlog is still pending, its
// command's replacements only the claims its candidates' own pods need (attribution: no backlog claim held
// hostage in it, docs/mechanisms/attribution.md). The full size's figures are in docs/fleet.md ("Scale").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStateStore, Closer } from '../../../functions/compose/index.ts';
import { rampScenario } from '../../../local/fleet/scenarios/index.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';
import { COMMAND_STATUSES } from '../../../shared/ports/state-store/command-states.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';
import { unprovisionableFor } from '../../../test/fixtures/fleet/ramp-pending.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../support/dynamodb/credentials.ts';
import { objects, ownerOf, runScenario, scenarioSeed, type ScenarioRun } from './scenario-support.ts';

const PENDING = 100;
const scenario = rampScenario('ramp-3400', { nodes: 30, pending: PENDING, minutes: 5 });
let r: ScenarioRun;
let commands: CommandRecord[];
const closer = new Closer();
beforeAll(async () => {
  r = await runScenario(scenario, scenarioSeed(5));
  // The commands as admit and orchestrate wrote them, open ones included (the summary lists finished ones).
  const store = buildStateStore(
    { region: LOCAL_REGION, tableName: r.env.tableName, endpoint: r.env.dynamo.endpoint },
    { now: () => new Date() },
    LOCAL_CREDENTIALS,
    closer,
  );
  commands = (
    await Promise.all(COMMAND_STATUSES.map((s) => store.listCommandsByStatus(r.env.clusterName, s)))
  ).flat();
}, 300_000);
afterAll(async () => {
  await closer.close();
  await r?.env.close();
});

describe('ramp-3400', () => {
  it('gives every provisionable pending pod a node; only the unprovisionable stay pending', () => {
    const pending = objects(r.kube, 'Pod').filter((p) => !p.spec?.nodeName && !p.metadata.deletionTimestamp);
    const owners = new Set(pending.map(ownerOf));
    expect([...owners].every((o) => o.startsWith('train-b200') || o.startsWith('serve-h200'))).toBe(true);
    expect(pending).toHaveLength(unprovisionableFor(PENDING));
    expect(r.summary.pods.pendingMax).toBe(PENDING);
    expect(r.summary.pods.pendingEnd).toBe(unprovisionableFor(PENDING));
    expect(r.summary.pods.unprovisionable).toBe(unprovisionableFor(PENDING));
    expect(r.summary.launches.failed).toBe(0);
    expect(r.summary.launches.gangsLaunched).toBeGreaterThan(0);
    expect(r.summary.launches.gangsRefused).toBe(0);
    expect(brokenInvariants(r.run)).toEqual([]);
  });

  it('admits the drift while the backlog is pending, with replacements only for its own pods', () => {
    const [edit] = scenario.timeline.record(r.kube).injected;
    expect(edit?.kind).toBe('drop-type');
    expect(r.run.samples.find((s) => s.minute === edit?.minute)?.pending).toBeGreaterThan(
      unprovisionableFor(PENDING),
    );
    const drifted = new Set(
      objects(r.kube, 'NodeClaim')
        .filter((c) => c.metadata.labels?.['node.kubernetes.io/instance-type'] === edit?.type)
        .map((c) => String(c.metadata.name)),
    );
    const drift = commands.filter((c) => c.method === 'drift');
    expect(drift.length).toBeGreaterThan(0);
    for (const c of drift) {
      expect(
        c.candidates.every(
          (n) => drifted.has(n) || !objects(r.kube, 'NodeClaim').some((x) => x.metadata.name === n),
        ),
      ).toBe(true);
      // Attribution: a claim the simulation opened only for backlog pods is the provisioner's, not the command's.
      expect(c.replacements.length).toBeLessThanOrEqual(c.candidates.length);
      expect(Date.parse(c.createdAt.toISOString())).toBeGreaterThanOrEqual(Date.parse(edit?.at ?? ''));
    }
  });
});
