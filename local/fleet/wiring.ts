// The Lambda functions of a local fleet, each built the way its functions/<fn>/deps.ts builds it — its config
// parsed from the environment the deployment would give it, its adapters from functions/compose — but pointed
// at the local servers, on the fleet's simulated clock, with in-memory logs and metrics. Async invokes go
// through the in-process invoker; the EC2 events EventBridge would forward reach lifecycle as SQS batches.
import {
  Closer,
  buildCluster,
  buildEc2Provider,
  buildPriceStore,
  buildStateStore,
  deploymentSource,
  createLaunchHandler,
  passInstanceTypes,
  type ClusterSettings,
  type Ec2Settings,
  type GceSettings,
  type PassTypesConfig,
  type SqsBatchResponse,
} from '../../functions/compose/index.ts';
import { buildGceProvider } from '../../functions/compose/gce.ts';
import { FLEET_KUBERNETES_VERSION } from '../ssm/seed.ts';
import { createLifecycleHandler } from '../../functions/lifecycle/handler.ts';
import { createProvisionHandler } from '../../functions/provision/handler.ts';
import { InProcessInvoker } from '../../shared/adapters/memory/invoker.ts';
import { systemTimer } from '../../shared/adapters/system-timer.ts';
import { launchAwsConfig } from '../../shared/config/launch-aws.ts';
import { launchGcpConfig } from '../../shared/config/launch-gcp.ts';
import { lifecycleConfig } from '../../shared/config/lifecycle.ts';
import { provisionConfig } from '../../shared/config/provision.ts';
import type { LaunchCounts } from '../../shared/loop/launch.ts';
import { StoredPrices } from '../../shared/loop/prices.ts';
import { fencingFor } from '../dynamodb/start.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../dynamodb/credentials.ts';
import { localGoogleAuth } from '../gce/auth.ts';
import type { FleetClock } from './clock.ts';
import { FLEET_CENSUS_BUCKET, type FleetEnvironment } from './environment.ts';
import { disruptionFunctions } from './wiring-disruption.ts';
import { parameterEnv, type DeployParameters } from './wiring-parameters.ts';
import { pricingFunction } from './wiring-pricing.ts';
import { censusFunction } from './wiring-census.ts';
import { CommandLedger } from './commands.ts';
import type { InvocationMeter } from './costs.ts';
import { seededIds } from './ids.ts';
import { FleetMetrics, type FleetLog } from './log.ts';
import type { Metrics } from '../../shared/ports/metrics.ts';
import { lambdaContext, sqsBatch, type FleetFunction } from './registry.ts';

export interface Wiring {
  readonly functions: readonly FleetFunction[];
  readonly invoker: InProcessInvoker;
  readonly metrics: FleetMetrics;
  /** Every launch invocation that returned: its cloud, its gang (if any) and the launch use case's counts. */
  readonly launches: LaunchOutcome[];
  /** The fleet's own reader of the state table (commands, census), not any function's. */
  readonly store: ReturnType<typeof buildStateStore>;
  readonly commands: CommandLedger;
  /** Delivers the EC2 events queued since the last call to lifecycle, as one SQS batch. */
  deliverInterruptions(): Promise<SqsBatchResponse | undefined>;
  close(): Promise<void>;
}

export interface LaunchOutcome {
  readonly cloud: 'aws' | 'gcp';
  readonly gang?: string;
  readonly counts: LaunchCounts;
}

export interface Adapters {
  readonly logger: ReturnType<FleetLog['logger']>;
  readonly obs: { readonly logger: ReturnType<FleetLog['logger']>; readonly metrics: FleetMetrics };
  cluster(c: ClusterSettings): ReturnType<typeof buildCluster>;
  store(s: Parameters<typeof buildStateStore>[0]): ReturnType<typeof buildStateStore>;
  ec2(s: Parameters<typeof buildEc2Provider>[0]): ReturnType<typeof buildEc2Provider>;
  gce(s: Parameters<typeof buildGceProvider>[0]): ReturnType<typeof buildGceProvider>;
  /** A pass function's instance types, priced from the stored book as its deps.ts prices them. */
  types(c: PassTypesConfig): ReturnType<typeof passInstanceTypes>;
}

export interface WiringOptions {
  readonly clock: FleetClock;
  readonly log: FleetLog;
  readonly upstream: boolean;
  /** The run's seed: the functions' nonces derive from it (ids.ts). */
  readonly seed: number;
  /** Charges each invocation's work to the clock when it returns (costs.ts; nothing in wall-clock mode). */
  readonly meter: InvocationMeter;
  /** The deployment parameters the scenario's operator set (wiring-parameters.ts). */
  readonly parameters?: DeployParameters;
  /** Also given every metric sample and flush (a benchmark's instrument: instrument.ts). */
  readonly metricsTee?: Metrics & { flush(): void };
}

/** The environment variables a deployment gives every function (docs/deploy.md), for the local servers. */
function lambdaEnv(
  env: FleetEnvironment,
  upstream: boolean,
  parameters?: DeployParameters,
): Record<string, string> {
  return {
    ...parameterEnv(parameters),
    KRAFTSMAN_CLUSTER_NAME: env.clusterName,
    AWS_REGION: LOCAL_REGION,
    KRAFTSMAN_TABLE_NAME: env.tableName,
    KRAFTSMAN_DYNAMODB_ENDPOINT: env.dynamo.endpoint,
    KRAFTSMAN_KUBE_SERVER: env.kubeUrl,
    KRAFTSMAN_KUBE_TOKEN: 'local',
    KRAFTSMAN_GCP_PROJECT: env.gce.world.project,
    KRAFTSMAN_GCP_REGION: env.gce.world.region,
    KRAFTSMAN_GCP_ZONES: env.gcpZones.join(','),
    KRAFTSMAN_GCP_CREDENTIALS:
      '{"type":"external_account","note":"unused: the local fleet injects its auth"}',
    KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws',
    KRAFTSMAN_LAUNCH_GCP_FUNCTION: 'launch-gcp',
    KRAFTSMAN_ADMIT_FUNCTION: 'admit',
    KRAFTSMAN_UPSTREAM: String(upstream),
    // Only when the scenario sets --param censusShardSize: a census of more candidates than one shard fans out to
    // census-worker processes (census-workers.ts). Not yet verified end to end in the fleet (see census.md).
    ...(parameters?.censusShardSize
      ? {
          KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET: FLEET_CENSUS_BUCKET,
          KRAFTSMAN_S3_ENDPOINT: env.s3.endpoint,
          KRAFTSMAN_CENSUS_WORKER_FUNCTION: 'census-worker',
          KRAFTSMAN_CENSUS_POLL: '200ms',
        }
      : {}),
  };
}

/**
 * A departure from Lambda's settings: provision watches for a single batch per firing (Karpenter's
 * 1 s idle / 10 s max batching scaled down) instead of 14 minutes, because the fleet steps its schedule a
 * simulated minute at a time and a long watch would hold the step (docs/fleet.md, "Departures from a deployment").
 */
const FLEET_WATCH = { windowMs: 0, idleMs: 200, maxMs: 2_000, pollMs: 50 } as const;

export function wireFunctions(env: FleetEnvironment, o: WiringOptions): Wiring {
  const vars = lambdaEnv(env, o.upstream, o.parameters);
  const closer = new Closer();
  const metrics = new FleetMetrics(o.metricsTee);
  const { clock, meter } = o;
  // Simulated time: one invocation at a time, in the order they were made, so none sees another half done.
  const invoker = new InProcessInvoker(3, clock.mode === 'simulated');
  const launches: LaunchOutcome[] = [];
  const nonce = seededIds(o.seed, 'nonce');
  let launchSeq = 0;
  // The deployment id, as every function's deps read it from the state table (functions/compose/deployment.ts).
  const deployment = deploymentSource(
    buildStateStore(provisionConfig(vars).store, clock, LOCAL_CREDENTIALS, closer, fencingFor(env.dynamo)),
    env.clusterName,
    nonce,
  );
  const adapters = (fn: string): Adapters => {
    const logger = o.log.logger(fn);
    const ec2 = (s: Ec2Settings) =>
      buildEc2Provider(
        {
          ...s,
          endpoint: env.ec2.endpoint,
          iamEndpoint: env.iam.endpoint,
          ssmEndpoint: env.ssm.endpoint,
          // The fleet's cluster runs the Kubernetes version the SSM emulator publishes images for (local/ssm/seed.ts).
          kubernetesVersion: s.kubernetesVersion ?? FLEET_KUBERNETES_VERSION,
        },
        clock,
        logger,
        LOCAL_CREDENTIALS,
        closer,
        undefined,
        deployment,
      );
    const gce = (s: GceSettings) =>
      buildGceProvider(
        { ...s, endpoint: { host: '127.0.0.1', port: env.gce.port } },
        clock,
        logger,
        localGoogleAuth(),
        closer,
        undefined,
        deployment,
      );
    return {
      logger,
      obs: { logger, metrics },
      cluster: (c: ClusterSettings) => buildCluster(c, logger),
      store: (s: Parameters<typeof buildStateStore>[0]) =>
        buildStateStore(s, clock, LOCAL_CREDENTIALS, closer, fencingFor(env.dynamo)),
      ec2,
      gce,
      types: (c: PassTypesConfig) =>
        passInstanceTypes(
          c,
          clock,
          { metrics, logger },
          { ec2, gce, prices: (s) => buildPriceStore(s, LOCAL_CREDENTIALS, closer) },
        ),
    };
  };

  for (const cloud of ['aws', 'gcp'] as const) {
    const fn = `launch-${cloud}` as const;
    const a = adapters(fn);
    const config = cloud === 'aws' ? launchAwsConfig(vars) : launchGcpConfig(vars);
    const provider = cloud === 'aws' ? a.ec2(config.ec2) : a.gce(launchGcpConfig(vars).gce);
    // The stored price book over the built-in catalog, as composeLaunchDeps gives a deployed launcher.
    const book = new StoredPrices({
      store: buildPriceStore(config.store, LOCAL_CREDENTIALS, closer),
      clusterName: config.clusterName,
      clock,
      ...a.obs,
    });
    const prices = () => book.lookup(provider.cloud);
    const deps = {
      loop: {
        cluster: a.cluster(config.cluster),
        store: a.store(config.store),
        provider,
        clock,
        prices,
        ...a.obs,
      },
      settings: config,
      obs: a.obs,
    };
    const handler = createLaunchHandler(fn, () => Promise.resolve(deps));
    invoker.register(fn, async (payload) => {
      const counts = await meter(fn, () => handler(payload, lambdaContext(fn, ++launchSeq, 900_000, clock)));
      const gang = (payload as { gang?: unknown }).gang;
      launches.push({ cloud, ...(typeof gang === 'string' ? { gang } : {}), counts });
      return counts;
    });
  }

  const provision = (() => {
    const a = adapters('provision');
    const config = provisionConfig(vars);
    const deps = {
      loop: {
        cluster: a.cluster(config.cluster),
        store: a.store(config.store),
        invoker,
        instanceTypes: a.types(config),
        clock,
        timer: systemTimer,
        nonce,
        ...a.obs,
      },
      settings: { ...config, watch: { ...config.watch, ...FLEET_WATCH } },
      obs: a.obs,
    };
    return createProvisionHandler(() => Promise.resolve(deps));
  })();

  const lifecycle = (() => {
    const a = adapters('lifecycle');
    const config = lifecycleConfig(vars);
    const gce = config.gce ? a.gce(config.gce) : undefined;
    const deps = {
      loop: {
        cluster: a.cluster(config.cluster),
        store: a.store(config.store),
        providers: { aws: a.ec2(config.ec2), ...(gce ? { gcp: gce } : {}) },
        ...(gce ? { preemptions: gce } : {}),
        clock,
        timer: systemTimer,
        nonce,
        ...a.obs,
      },
      settings: config,
      obs: a.obs,
    };
    return createLifecycleHandler(() => Promise.resolve(deps));
  })();

  let seq = 0;
  const store = adapters('fleet').store(provisionConfig(vars).store);
  return {
    functions: [
      pricingFunction(vars, env, adapters, clock, closer),
      { name: 'provision', everyMinutes: 1, timeoutMs: 900_000, handler: provision },
      ...disruptionFunctions(vars, adapters, { clock, meter, invoker, nonce }),
      censusFunction(vars, adapters, clock, nonce),
      { name: 'lifecycle', everyMinutes: 1, timeoutMs: 900_000, handler: lifecycle },
    ],
    invoker,
    metrics,
    launches,
    store,
    commands: new CommandLedger(store, env.clusterName),
    async deliverInterruptions() {
      const events = env.ec2Events.splice(0);
      if (events.length === 0) return undefined;
      seq += 1;
      const out = await meter('lifecycle:sqs', () =>
        lifecycle(sqsBatch(events, seq), lambdaContext('lifecycle', `sqs-${seq}`, 900_000, clock)),
      );
      return out as SqsBatchResponse;
    },
    close: () => closer.close(),
  };
}
