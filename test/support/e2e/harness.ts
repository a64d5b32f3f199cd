// The end-to-end world on 127.0.0.1: the Kubernetes, EC2 and Compute Engine emulators, DynamoDB Local with
// the state table, and builders that make each function's adapters against them through functions/compose —
// the same builders the Lambda containers use, with local endpoints and credentials. One harness per test file.
import { localGoogleAuth } from '../../../local/gce/auth.ts';
import { startEc2Emulator, type Ec2Emulator } from '../../../local/ec2/server.ts';
import { startIamEmulator, type IamEmulator } from '../../../local/iam/server.ts';
import type { IamPropagation } from '../../../local/iam/world.ts';
import { EVENTUAL_UNSEEN_MS, EVENTUAL_UNSEEN_REQUESTS } from '../../../local/ec2/world.ts';
import { startGceEmulator, type GceEmulator } from '../../../local/gce/server.ts';
import {
  KubeApiEmulator,
  bindPending,
  defaultCrds,
  enableOwnerRecreation,
  type BindResult,
  type BookmarkSchedule,
  type KubeObject,
} from '../../../local/kube-api/index.ts';
import type { KubeCluster } from '../../../shared/adapters/kube/index.ts';
import type { DynamoDbStateStore } from '../../../shared/adapters/dynamodb/index.ts';
import type { Ec2CloudProvider } from '../../../shared/adapters/aws-ec2/provider.ts';
import type { GceCloudProvider } from '../../../shared/adapters/gcp-compute/provider.ts';
import { InProcessInvoker } from '../../../shared/adapters/memory/invoker.ts';
import { systemTimer } from '../../../shared/adapters/system-timer.ts';
import type { Timer } from '../../../shared/ports/timer.ts';
import type { DeploymentSource } from '../../../shared/ports/cloud-provider/index.ts';
import { randomUUID } from 'node:crypto';
import { liveEc2Prices, liveGcePrices } from '../../../functions/compose/price-sources.ts';
import { buildPriceStore } from '../../../functions/compose/price-store.ts';
import type { DynamoDbPriceStore } from '../../../shared/adapters/dynamodb/prices.ts';
import {
  Closer,
  buildCluster,
  buildEc2Provider,
  buildStateStore,
  deploymentSource,
  type ClusterSettings,
  type Ec2Settings,
  type GceSettings,
  type StateStoreSettings,
} from '../../../functions/compose/index.ts';
import { buildGceProvider } from '../../../functions/compose/gce.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { OffsetClock } from '../../fakes/offset-clock.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../dynamodb/credentials.ts';
import { startDynamoDbLocal } from '../dynamodb/dynamodb-local.ts';
import type { LocalDynamo } from '../dynamodb/dynalite.ts';
import { createTable } from '../dynamodb/tables.ts';
import { AWS_ZONES, GCE_PROJECT, GCE_ZONES, ec2NodeClass, gceNodeClass } from './fixtures.ts';
import { registerEc2Node, registerGceNode } from './nodes.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export interface E2eOptions {
  readonly clusterName?: string;
  /** How long an instance stays pending before its Node registers (ms). */
  readonly bootDelayMs?: number;
  /** False: booted instances register no Node (registration-timeout tests). */
  readonly registerNodes?: boolean;
  /** More projects the Compute Engine emulator serves (another deployment's VMs; `gce.worldOf(project)`). */
  readonly otherGceProjects?: readonly string[];
  /** Objects seeded after the node classes (NodePools, pods, PodGroups, ...). */
  readonly objects?: readonly KubeObject[];
  /**
   * The API server's watch bookmarks. The harness asks for the emulator's explicit fast mode by default
   * (`{ afterReplay: true }`: a bookmark right after the replay), so that a test's warm reads do not each wait
   * for the bookmark kube-apiserver sends 2 s before a watch's timeout (that wait made e2e 6x slower). `{}` is
   * the real server's schedule: test/integration/kube tests the catch-up on it, and the full-cycle e2e test
   * runs the whole loop on it.
   */
  readonly bookmarks?: BookmarkSchedule;
  /**
   * EC2's eventual consistency, on by default as on EC2: a new instance is InvalidInstanceID.NotFound to the next
   * `EVENTUAL_UNSEEN_REQUESTS` DescribeInstances/CreateTags requests within `EVENTUAL_UNSEEN_MS` of its launch
   * (local/ec2/README.md). 'immediate' for the rare
   * test about something else that needs a launched instance listed at once.
   */
  readonly ec2Consistency?: 'eventual' | 'immediate';
  /** Roles IAM holds besides the fixtures' KraftsmanNodeRole. */
  readonly iamRoles?: readonly string[];
  /** IAM's propagation lag for new instance profiles (local/iam/README.md); none unless given. */
  readonly iamPropagation?: IamPropagation;
}

export interface E2eHarness {
  readonly clusterName: string;
  readonly clock: OffsetClock;
  readonly timer: Timer;
  readonly logger: MemoryLogger;
  readonly metrics: RecordingMetrics;
  readonly kube: KubeApiEmulator;
  readonly ec2: Ec2Emulator;
  /** IAM: the node classes' roles and the instance profiles made for them (EC2 asks it whether a profile is usable). */
  readonly iam: IamEmulator;
  readonly gce: GceEmulator;
  readonly dynamo: LocalDynamo;
  /** Async invocations between functions: register targets, then `await invoker.settled()`. */
  readonly invoker: InProcessInvoker;
  readonly settings: {
    readonly cluster: ClusterSettings;
    readonly store: StateStoreSettings;
    readonly ec2: Ec2Settings;
    readonly gce: GceSettings;
  };
  /** This deployment's id, from the state table as functions/compose reads it (every container shares the table). */
  readonly deployment: DeploymentSource;
  /** Switches Node registration on boot on or off. */
  registerNodes: boolean;
  /** Each call is a fresh "container": its own clients and caches. */
  cluster(): KubeCluster;
  store(): DynamoDbStateStore;
  /** The price book the pricing function stores, in the same table (launchers read it as deployed). */
  priceStore(): DynamoDbPriceStore;
  ec2Provider(): Ec2CloudProvider;
  gceProvider(): GceCloudProvider;
  seed(objects: readonly KubeObject[]): void;
  /** Every object of a kind, as the API server holds it now. */
  list(kind: string): KubeObject[];
  /** The emulator's binder: pending pods go onto nodes with room (gangs all or nothing). */
  bind(): BindResult;
  close(): Promise<void>;
}

/** The local servers' fixed-token auth (local/gce/auth.ts). */
export const fakeGoogleAuth = localGoogleAuth;

export async function startHarness(options: E2eOptions = {}): Promise<E2eHarness> {
  const clusterName = options.clusterName ?? 'e2e';
  const clock = new OffsetClock();
  const closer = new Closer();
  // Pages short or empty at random (seeded), as a real server may serve them: every read loop must page on.
  const kube = new KubeApiEmulator({
    crds: defaultCrds(),
    now: () => clock.now(),
    shortPages: { seed: 30 },
    bookmarks: options.bookmarks ?? { afterReplay: true },
  });
  const dynamoStart = startDynamoDbLocal();
  try {
    const kubeUrl = await kube.start();
    closer.add(() => kube.close());
    enableOwnerRecreation(kube);
    const harness = { registerNodes: options.registerNodes ?? true } as { registerNodes: boolean };
    const ec2 = await startEc2Emulator({
      zones: AWS_ZONES,
      now: () => clock.now(),
      bootDelayMs: options.bootDelayMs ?? 0,
      onBoot: (b) => {
        if (harness.registerNodes) registerEc2Node(kube, ec2.world, b);
      },
    });
    closer.add(() => ec2.close());
    // The e2e node classes' role (fixtures.ts) exists; IAM's propagation lag is off unless a test models it.
    const iam = await startIamEmulator({
      roles: ['KraftsmanNodeRole', ...(options.iamRoles ?? [])],
      now: () => clock.now(),
      ...(options.iamPropagation ? { propagation: options.iamPropagation } : {}),
    });
    closer.add(() => iam.close());
    // The profile an operator made, which node classes with spec.instanceProfile name (ec2-setup.ts's).
    iam.world.addInstanceProfile('KraftsmanNodeProfile', 'KraftsmanNodeRole');
    ec2.world.instanceProfileUsable = (name) => iam.world.usableByEc2(name);
    if ((options.ec2Consistency ?? 'eventual') === 'eventual') {
      ec2.world.faults.unseenRequests = EVENTUAL_UNSEEN_REQUESTS;
      ec2.world.faults.unseenMs = EVENTUAL_UNSEEN_MS;
    }
    const gce = await startGceEmulator({
      project: GCE_PROJECT,
      otherProjects: options.otherGceProjects ?? [],
      zones: GCE_ZONES,
      now: () => clock.now(),
      onBoot: (b) => {
        if (harness.registerNodes) registerGceNode(kube, gce.world, b);
      },
    });
    closer.add(() => gce.close());
    const dynamo = await dynamoStart;
    closer.add(() => dynamo.stop());
    const tableName = `kraftsman-${clusterName}`;
    await createTable(dynamo, tableName);
    const logger = new MemoryLogger();
    const retry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
    const settings = {
      cluster: { server: kubeUrl, token: 'e2e-token' },
      store: { region: LOCAL_REGION, tableName, endpoint: dynamo.endpoint },
      ec2: { clusterName, region: 'us-east-1', endpoint: ec2.endpoint, iamEndpoint: iam.endpoint, retry },
      gce: {
        clusterName,
        project: GCE_PROJECT,
        region: 'us-central1',
        zones: [...GCE_ZONES],
        endpoint: { host: '127.0.0.1', port: gce.port },
        operationTimeoutMs: 20_000,
        retry,
      },
    };
    kube.seed([ec2NodeClass(), gceNodeClass(), ...(options.objects ?? [])]);
    const deployment = deploymentSource(
      buildStateStore(settings.store, clock, LOCAL_CREDENTIALS, closer),
      clusterName,
      randomUUID,
    );
    return Object.assign(harness, {
      clusterName,
      clock,
      timer: systemTimer,
      logger,
      metrics: new RecordingMetrics(),
      kube,
      ec2,
      iam,
      gce,
      dynamo,
      invoker: new InProcessInvoker(),
      settings,
      deployment,
      cluster: () => buildCluster(settings.cluster, logger),
      store: () => buildStateStore(settings.store, clock, LOCAL_CREDENTIALS, closer),
      priceStore: () => buildPriceStore(settings.store, LOCAL_CREDENTIALS, closer),
      // Priced from the emulator's price APIs, read afresh each time (a test may change them).
      ec2Provider: () =>
        buildEc2Provider(
          settings.ec2,
          clock,
          logger,
          LOCAL_CREDENTIALS,
          closer,
          liveEc2Prices(settings.ec2, clock, LOCAL_CREDENTIALS, closer),
          deployment,
        ),
      gceProvider: () =>
        buildGceProvider(
          settings.gce,
          clock,
          logger,
          fakeGoogleAuth(),
          closer,
          liveGcePrices(settings.gce, fakeGoogleAuth(), closer),
          deployment,
        ),
      seed: (objects: readonly KubeObject[]) => kube.seed(objects),
      list: (kind: string) => kube.store.all(kube.typeOf(kind)),
      bind: () => bindPending(kube),
      close: () => closer.close(),
    });
  } catch (err: unknown) {
    await closer.close();
    await dynamoStart.then((d) => d.stop()).catch(() => undefined);
    throw err;
  }
}
