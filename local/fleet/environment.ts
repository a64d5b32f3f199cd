// The servers a local fleet runs against, all on 127.0.0.1: the Kubernetes API emulator (alive: booted
// instances register as Nodes), the EC2 and Compute Engine emulators (their worlds from the catalog, the
// seeded fleet's instances in them), the IAM emulator (the node classes' roles; EC2 asks it about instance
// profiles), the SSM emulator (the public image parameters aliases read), and DynamoDB Local with the state table (the store's fenced writes are
// DynamoDB transactions, which dynalite lacks).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ec2Event } from '../ec2/events.ts';
import { startEc2Emulator, type Ec2Emulator } from '../ec2/server.ts';
import { EVENTUAL_UNSEEN_MS, EVENTUAL_UNSEEN_REQUESTS } from '../ec2/world.ts';
import { startGceEmulator, type GceEmulator } from '../gce/server.ts';
import { startIamEmulator, type IamEmulator } from '../iam/server.ts';
import { startSsmEmulator, type SsmEmulator } from '../ssm/server.ts';
import { startS3Emulator, type S3Emulator } from '../s3/server.ts';
import { defaultCrds, enableOwnerRecreation, KubeApiEmulator, type KubeObject } from '../kube-api/index.ts';
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { LocalDynamo } from '../dynamodb/server.ts';
import { fencingFor, startLocalDynamo } from '../dynamodb/start.ts';
import { createTable } from '../dynamodb/tables.ts';
import { registerEc2Node, registerGceNode } from '../kubelet.ts';
import { buildStateStore } from '../../functions/compose/state-store.ts';
import { Closer } from '../../functions/compose/local.ts';
import { systemClock } from '../../shared/adapters/system-clock.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../dynamodb/credentials.ts';
import { FLEET_DEPLOYMENT, adoptNodes } from './adopt.ts';
import { nodeRoles, seedEc2, seedGce } from './clouds.ts';
import { seededIds } from './ids.ts';

/** The bucket the census writes its sweep's snapshot to when it fans out. */
export const FLEET_CENSUS_BUCKET = 'kraftsman-census';

export interface FleetWorld {
  readonly clusterName: string;
  readonly gcpProject: string;
  readonly awsZones: readonly string[];
  readonly gcpZones: readonly string[];
}

export interface FleetEnvironment extends FleetWorld {
  readonly kube: KubeApiEmulator;
  readonly kubeUrl: string;
  readonly kubeconfig: string;
  readonly ec2: Ec2Emulator;
  readonly gce: GceEmulator;
  readonly iam: IamEmulator;
  /** SSM's public image parameters (image aliases, local/ssm/README.md). */
  readonly ssm: SsmEmulator;
  /** The census fan-out's snapshot bucket, FLEET_CENSUS_BUCKET (local/s3/README.md). */
  readonly s3: S3Emulator;
  readonly dynamo: LocalDynamo;
  readonly tableName: string;
  /** EC2 events EventBridge would forward to the interruption queue, not yet delivered. */
  readonly ec2Events: Ec2Event[];
  close(): Promise<void>;
}

const kubeconfigYaml = (server: string): string =>
  `apiVersion: v1\nkind: Config\nclusters:\n- name: kraftsman-local\n  cluster:\n    server: ${server}\n` +
  `users:\n- name: local\n  user:\n    token: local\ncontexts:\n- name: kraftsman-local\n  context:\n` +
  `    cluster: kraftsman-local\n    user: local\ncurrent-context: kraftsman-local\n`;

export async function startEnvironment(
  world: FleetWorld,
  objects: readonly KubeObject[],
  catalog: InstanceTypeCatalog,
  /** The fleet's clock: the emulators' time, and their timers (boots, state steps, grace periods) run on it. */
  clock: Clock & { later(ms: number, fn: () => void): void },
  /** The run's seed: the Kubernetes emulator's UIDs and generated names derive from it. */
  runSeed: number,
): Promise<FleetEnvironment> {
  const closes: (() => Promise<unknown> | void)[] = [];
  const close = async () => {
    for (const c of closes.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    const dynamoStart = startLocalDynamo();
    closes.push(() => dynamoStart.then((d) => d.stop()));
    // The emulator's explicit fast bookmark mode: the fleet's clock runs far ahead of the wall clock, and a warm
    // read waiting the wall second for kube-apiserver's pre-timeout bookmark would make every invocation slower
    // without changing what it reads (docs/fleet.md, "Departures from a deployment").
    const kube = new KubeApiEmulator({
      now: () => clock.now(),
      crds: defaultCrds(),
      bookmarks: { afterReplay: true },
      later: clock.later,
      newId: seededIds(runSeed, 'kube'),
    });
    const kubeUrl = await kube.start();
    closes.push(() => kube.close());
    enableOwnerRecreation(kube);
    const ec2Events: Ec2Event[] = [];
    const ec2: Ec2Emulator = await startEc2Emulator({
      zones: world.awsZones,
      now: () => clock.now(),
      later: clock.later,
      onBoot: (b) => registerEc2Node(kube, ec2.world, b),
      onEvent: (e) => ec2Events.push(e),
    });
    closes.push(() => ec2.close());
    // EC2 is eventually consistent: a new instance is not listed by the next few requests (local/ec2/README.md).
    ec2.world.faults.unseenRequests = EVENTUAL_UNSEEN_REQUESTS;
    ec2.world.faults.unseenMs = EVENTUAL_UNSEEN_MS;
    const gce: GceEmulator = await startGceEmulator({
      project: world.gcpProject,
      zones: world.gcpZones,
      now: () => clock.now(),
      later: clock.later,
      onBoot: (b) => registerGceNode(kube, gce.world, b),
    });
    closes.push(() => gce.close());
    // The roles the node classes name exist; a profile is usable by EC2 at once here (the provider's propagation
    // retries sleep on the wall clock, which the simulated fleet does not spend; local/iam/README.md).
    const iam: IamEmulator = await startIamEmulator({ roles: nodeRoles(objects), now: () => clock.now() });
    closes.push(() => iam.close());
    ec2.world.instanceProfileUsable = (name) => iam.world.usableByEc2(name);
    const ssm: SsmEmulator = await startSsmEmulator({ now: () => clock.now() });
    closes.push(() => ssm.close());
    const s3 = await startS3Emulator([FLEET_CENSUS_BUCKET]);
    closes.push(() => s3.close());
    seedEc2(ec2.world, catalog, world.clusterName);
    seedGce(gce.world, catalog, world.gcpZones);
    const dynamo = await dynamoStart;
    const tableName = `kraftsman-${world.clusterName}`;
    await createTable(dynamo, tableName);
    const closer = new Closer();
    closes.push(() => closer.close());
    const store = buildStateStore(
      { region: LOCAL_REGION, tableName, endpoint: dynamo.endpoint },
      systemClock,
      LOCAL_CREDENTIALS,
      closer,
      fencingFor(dynamo),
    );
    await store.deploymentId(world.clusterName, FLEET_DEPLOYMENT);
    kube.seed([...objects, ...adoptNodes(objects, { ec2: ec2.world, gce: gce.world }, world.clusterName)]);
    const dir = mkdtempSync(join(tmpdir(), 'kraftsman-fleet-'));
    closes.push(() => rmSync(dir, { recursive: true, force: true }));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml(kubeUrl));
    return {
      ...world,
      kube,
      kubeUrl,
      kubeconfig,
      ec2,
      gce,
      iam,
      ssm,
      s3,
      dynamo,
      tableName,
      ec2Events,
      close,
    };
  } catch (err: unknown) {
    await close();
    throw err;
  }
}
