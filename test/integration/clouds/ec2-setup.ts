// Test wiring for the EC2 adapter: an emulator on 127.0.0.1, the real EC2 and Pricing SDK clients
// pointed at it, and a node class that selects the emulator's tagged subnets, groups and images. The provider
// prices instance types as a deployment does, from a price book the pricing function's source read (here read
// afresh from the emulator's price APIs on each call, so a test can change them).
import type { EC2Client } from '@aws-sdk/client-ec2';
import { createEc2Client } from '../../../shared/adapters/aws-ec2/clients.ts';
import { Ec2PriceSource } from '../../../shared/adapters/aws-ec2/price-source.ts';
import { createPricingClient } from '../../../shared/adapters/aws-ec2/pricing.ts';
import { rowsLookup } from '../../../shared/loop/prices.ts';
import type { PriceLookup, PriceRow } from '../../../shared/ports/price-store.ts';
import type { EC2NodeClass } from '../../../shared/model/nodeclass.ts';
import { parseEc2ProviderConfig } from '../../../shared/config/aws-ec2.ts';
import { Ec2CloudProvider } from '../../../shared/adapters/aws-ec2/provider.ts';
import { systemClock } from '../../../shared/adapters/system-clock.ts';
import type { Logger } from '../../../shared/ports/logger.ts';
import { DISCOVERY_TAG } from '../../../local/ec2/seed.ts';
import { startEc2Emulator, type Ec2Emulator, type Ec2EmulatorOptions } from '../../../local/ec2/server.ts';
import { startIamEmulator, type IamEmulator, type IamEmulatorOptions } from '../../../local/iam/server.ts';
import { createIamClient, createSsmClient } from '../../../shared/adapters/aws-ec2/clients.ts';
import { startSsmEmulator, type SsmEmulator } from '../../../local/ssm/server.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** The deployment id the rig's provider tags its launches with (docs/mechanisms/identity.md#instances). */
export const RIG_DEPLOYMENT = 'rig-deployment';
/** The rig's account: the emulator's default owner of every instance. */
export const RIG_ACCOUNT = '123456789012';
export const credentials = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };
const discovery = { tags: { [DISCOVERY_TAG.key]: DISCOVERY_TAG.value } };

export function ec2NodeClass(overrides: Partial<EC2NodeClass['spec']> = {}): EC2NodeClass {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      amiSelectorTerms: [discovery],
      subnetSelectorTerms: [discovery],
      securityGroupSelectorTerms: [discovery],
      // Custom (docs/mechanisms/bootstrap.md): the adapter tests launch without a launcher's join token.
      amiFamily: 'Custom',
      userData: '#!/bin/bash\necho "$KRAFTSMAN_KUBELET_ARGS"',
      bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443' },
      // Every launch names a profile (docs/mechanisms/instance-profiles.md); the rig's EC2 accepts any name.
      instanceProfile: 'KraftsmanNodeProfile',
      ...overrides,
    },
  };
}

/** A price source's rows as the lookup a pass hands the provider (the stored book's, without the catalog). */
export const lookupOf = (rows: readonly PriceRow[]): PriceLookup => rowsLookup(rows, 'aws');

export interface Ec2Rig {
  readonly emulator: Ec2Emulator;
  readonly ec2: EC2Client;
  readonly provider: Ec2CloudProvider;
  readonly sleeps: number[];
  readonly warnings: string[];
  /** The IAM emulator, when the rig was started with `iam` (EC2 then asks it whether a profile is usable). */
  readonly iam?: IamEmulator;
  /** The SSM emulator (public image parameters), when the rig was started with `ssm`. */
  readonly ssm?: SsmEmulator;
  /** Between tests: no instances, fleets, capacity limits or recorded calls, and no fault armed. */
  reset(): void;
  close(): Promise<void>;
}

export async function startEc2Rig(
  opts: {
    emulator?: Ec2EmulatorOptions;
    retryAttempts?: number;
    now?: () => Date;
    /** An IAM emulator for node classes with a role; EC2 refuses profiles it does not hold (or not yet). */
    iam?: IamEmulatorOptions;
    /** An SSM emulator for image aliases, and the cluster's Kubernetes version the provider resolves them for. */
    ssm?: { kubernetesVersion?: string };
  } = {},
): Promise<Ec2Rig> {
  const emulator = await startEc2Emulator({ zones: ['us-east-1a', 'us-east-1b'], ...opts.emulator });
  const iamEmulator = opts.iam
    ? await startIamEmulator({ ...opts.iam, ...(opts.now ? { now: opts.now } : {}) })
    : undefined;
  const ssmEmulator = opts.ssm ? await startSsmEmulator() : undefined;
  if (iamEmulator) emulator.world.instanceProfileUsable = (name) => iamEmulator.world.usableByEc2(name);
  const config = parseEc2ProviderConfig({
    clusterName: 'test',
    region: 'us-east-1',
    accountId: RIG_ACCOUNT,
    ...(opts.ssm?.kubernetesVersion ? { kubernetesVersion: opts.ssm.kubernetesVersion } : {}),
    retry: { attempts: opts.retryAttempts ?? 4, baseDelayMs: 1, maxDelayMs: 2 },
  });
  const local = { endpoint: emulator.endpoint, credentials };
  const ec2 = createEc2Client(config, local);
  const pricing = createPricingClient(config, local);
  const clock = opts.now ? { now: opts.now } : systemClock;
  const ssm = ssmEmulator
    ? createSsmClient(config, { endpoint: ssmEmulator.endpoint, credentials })
    : undefined;
  const iam = iamEmulator
    ? createIamClient(config, { endpoint: iamEmulator.endpoint, credentials })
    : undefined;
  const source = new Ec2PriceSource({ ec2, pricing, config, clock, sleep: async () => undefined });
  const sleeps: number[] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => void warnings.push(m),
    error: () => undefined,
  };
  const provider = new Ec2CloudProvider({
    ec2,
    config,
    clock,
    logger,
    sleep: async (ms) => void sleeps.push(ms),
    prices: async () => lookupOf(await source.prices()),
    deployment: async () => RIG_DEPLOYMENT,
    ...(iam ? { iam } : {}),
    ...(ssm ? { ssm } : {}),
  });
  return {
    emulator,
    ec2,
    provider,
    sleeps,
    warnings,
    ...(iamEmulator ? { iam: iamEmulator } : {}),
    ...(ssmEmulator ? { ssm: ssmEmulator } : {}),
    reset: () => {
      const w = emulator.world;
      w.instances.clear();
      w.capacity.clear();
      w.capacityErrors.clear();
      w.fleets.clear();
      w.calls.length = 0;
      sleeps.length = 0;
      Object.assign(w.faults, {
        throttle: { remaining: 0 },
        delayMs: {},
        ignoreMinTargetCapacity: false,
        failNext: {},
        unseenRequests: 0,
        unseenBy: undefined,
        emptyFleet: false,
        refuseOverrides: undefined,
      });
    },
    close: async () => {
      ec2.destroy();
      pricing.destroy();
      iam?.destroy();
      ssm?.destroy();
      await emulator.close();
      await iamEmulator?.close();
      await ssmEmulator?.close();
    },
  };
}
