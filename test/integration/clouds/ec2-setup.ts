// Test wiring for the EC2 adapter: an emulator on 127.0.0.1, the real EC2 and Pricing SDK clients
// pointed at it, and a node class that selects the emulator's tagged subnets, groups and images.
import type { EC2Client } from '@aws-sdk/client-ec2';
import { createEc2Clients } from '../../../shared/adapters/aws-ec2/clients.ts';
import type { InstanceTypeCatalog } from '../../../shared/model/catalog.ts';
import type { EC2NodeClass } from '../../../shared/model/nodeclass.ts';
import { parseEc2ProviderConfig } from '../../../shared/config/aws-ec2.ts';
import { Ec2CloudProvider } from '../../../shared/adapters/aws-ec2/provider.ts';
import { systemClock } from '../../../shared/adapters/system-clock.ts';
import type { Logger } from '../../../shared/ports/logger.ts';
import { DISCOVERY_TAG } from '../../../local/ec2/seed.ts';
import { startEc2Emulator, type Ec2Emulator, type Ec2EmulatorOptions } from '../../../local/ec2/server.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

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
      bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443' },
      ...overrides,
    },
  };
}

export interface Ec2Rig {
  readonly emulator: Ec2Emulator;
  readonly ec2: EC2Client;
  readonly provider: Ec2CloudProvider;
  readonly sleeps: number[];
  readonly warnings: string[];
  /** Between tests: no instances, fleets, capacity limits or recorded calls, and no fault armed. */
  reset(): void;
  close(): Promise<void>;
}

export async function startEc2Rig(
  opts: {
    emulator?: Ec2EmulatorOptions;
    fallbackCatalog?: InstanceTypeCatalog;
    withPricing?: boolean;
    retryAttempts?: number;
    /** 0 (the default here) rereads prices on every call, so tests can switch price sources. */
    priceTtlMs?: number;
    now?: () => Date;
  } = {},
): Promise<Ec2Rig> {
  const emulator = await startEc2Emulator({ zones: ['us-east-1a', 'us-east-1b'], ...opts.emulator });
  const config = parseEc2ProviderConfig({
    clusterName: 'test',
    region: 'us-east-1',
    retry: { attempts: opts.retryAttempts ?? 4, baseDelayMs: 1, maxDelayMs: 2 },
    priceTtlMs: opts.priceTtlMs ?? 0,
  });
  const { ec2, pricing } = createEc2Clients(config, { endpoint: emulator.endpoint, credentials });
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
    ...(opts.withPricing === false ? {} : { pricing }),
    config,
    clock: opts.now ? { now: opts.now } : systemClock,
    logger,
    sleep: async (ms) => void sleeps.push(ms),
    ...(opts.fallbackCatalog ? { fallbackCatalog: opts.fallbackCatalog } : {}),
  });
  return {
    emulator,
    ec2,
    provider,
    sleeps,
    warnings,
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
        emptyFleet: false,
        refuseOverrides: undefined,
      });
    },
    close: async () => {
      ec2.destroy();
      pricing.destroy();
      await emulator.close();
    },
  };
}
