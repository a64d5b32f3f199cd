// Runs one event scenario of the local fleet to its end through the real handlers (runFleet), with the seed
// printed (KRAFTSMAN_SEED reproduces a run), and reads the emulators' end state for the scenario tests.
import type { KubeApiEmulator, KubeObject } from '../../../local/kube-api/index.ts';
import { runFleet } from '../../../local/fleet/run.ts';
import type { TimedScenario } from '../../../local/fleet/scenarios/timed.ts';
import { fleetSummarySchema, type FleetSummary } from '../../../local/fleet/summary.ts';

type Obj = KubeObject & {
  metadata: { labels?: Record<string, string>; ownerReferences?: { name: string }[] };
  spec?: { nodeName?: string; providerID?: string; taints?: { key: string }[] };
  status?: { phase?: string; providerID?: string };
};

export interface ScenarioRun {
  readonly summary: FleetSummary;
  readonly run: Awaited<ReturnType<typeof runFleet>>['run'];
  readonly kube: KubeApiEmulator;
  readonly env: Awaited<ReturnType<typeof runFleet>>['env'];
}

export function scenarioSeed(fallback: number): number {
  const seed = process.env.KRAFTSMAN_SEED ? Number(process.env.KRAFTSMAN_SEED) : fallback;
  console.log(`scenario seed ${seed} (KRAFTSMAN_SEED=${seed} reproduces it)`);
  return seed;
}

export async function runScenario(scenario: TimedScenario, seed: number): Promise<ScenarioRun> {
  const { run, env } = await runFleet({
    scenario,
    seed,
    speed: 1e6,
    minutes: scenario.minutes,
    upstream: false,
    wallNow: Date.now,
  });
  return { summary: fleetSummarySchema.strict().parse(run.summary), run, kube: env.kube, env };
}

export const objects = (kube: KubeApiEmulator, kind: string): Obj[] =>
  kube.store.all(kube.typeOf(kind)) as Obj[];

/** The ReplicaSet a pod belongs to (a recreated pod keeps its owner, not its name). */
export const ownerOf = (p: Obj): string => p.metadata.ownerReferences?.[0]?.name ?? '';

/** Live pods of the owner, each with the Node it is bound to. */
export function podsOf(kube: KubeApiEmulator, owner: string): { pod: Obj; node: Obj | undefined }[] {
  const nodes = new Map(objects(kube, 'Node').map((n) => [String(n.metadata.name), n]));
  return objects(kube, 'Pod')
    .filter((p) => ownerOf(p) === owner && !p.metadata.deletionTimestamp)
    .map((pod) => ({ pod, node: pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined }));
}

/** The owner of a pod named at injection time (`namespace/name`), read from the pods as they were seeded. */
export const ownerOfName = (qualified: string): string =>
  (qualified.split('/')[1] ?? '').replace(/-[^-]+$/, '');
