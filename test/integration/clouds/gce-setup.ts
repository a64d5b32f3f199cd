// Test wiring for the Compute Engine adapter: the emulator on 127.0.0.1, the real @google-cloud/compute
// clients (REST transport) with an OAuth2Client holding a fake token, and a GPU node class.
import { CloudCatalogClient } from '@google-cloud/billing';
import { OAuth2Client } from 'google-auth-library';
import { billingPriceReader } from '../../../shared/adapters/gcp-compute/billing.ts';
import type { InstanceTypeCatalog } from '../../../shared/model/catalog.ts';
import type { GCENodeClass } from '../../../shared/model/nodeclass.ts';
import { createComputeClients, type ComputeClients } from '../../../shared/adapters/gcp-compute/clients.ts';
import { parseGceProviderConfig } from '../../../shared/config/gcp-compute.ts';
import type { GcePriceBook, TypeShape } from '../../../shared/adapters/gcp-compute/machine-types.ts';
import { GceCloudProvider } from '../../../shared/adapters/gcp-compute/provider.ts';
import { systemClock } from '../../../shared/adapters/system-clock.ts';
import { startGceEmulator, type GceEmulator, type GceEmulatorOptions } from '../../../local/gce/server.ts';

export const ZONES = ['us-central1-a', 'us-central1-b'] as const;
/** The deployment id the rig's provider labels its launches with (docs/mechanisms/identity.md#instances). */
export const RIG_DEPLOYMENT = 'rig-deployment';
export const OTHER_PROJECT = 'other-project';

export function fakeAuth(): OAuth2Client {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: 'local-fake-token', expiry_date: Date.now() + 3_600_000 });
  return auth;
}

export function gceNodeClass(overrides: Partial<GCENodeClass['spec']> = {}): GCENodeClass {
  return {
    apiVersion: 'karpenter.k8s.gcp/v1alpha1',
    kind: 'GCENodeClass',
    metadata: { name: 'default' },
    spec: {
      imageSelectorTerms: [{ id: 'projects/kraftsman-test/global/images/gpu-node-2026-11-01' }],
      subnetwork: 'regions/us-central1/subnetworks/nodes',
      // Custom (a script; docs/mechanisms/bootstrap.md): the adapter tests launch without a launcher's join token.
      bootstrap: {
        apiServerEndpoint: 'https://10.0.0.1:6443',
        script: '#!/bin/bash\necho "$KRAFTSMAN_KUBELET_ARGS"',
      },
      ...overrides,
    },
  };
}

/** The built-in catalog stand-in the fallback reads: two G2 types in both zones. */
export function gceCatalog(): InstanceTypeCatalog {
  const offer = (od: number, spot: number) =>
    ZONES.flatMap((zone) => [
      { zone, capacityType: 'on-demand' as const, price: od, available: true },
      { zone, capacityType: 'spot' as const, price: spot, available: true },
    ]);
  return {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: [
      {
        name: 'g2-standard-4',
        cloud: 'gcp',
        arch: 'amd64',
        capacity: { cpu: '4', memory: '16Gi' },
        offerings: offer(0.7068, 0.2827),
      },
      {
        name: 'g2-standard-8',
        cloud: 'gcp',
        arch: 'amd64',
        capacity: { cpu: '8', memory: '32Gi' },
        offerings: offer(0.8536, 0.3414),
      },
    ],
  };
}

export interface GceRig {
  readonly emulator: GceEmulator;
  readonly clients: ComputeClients;
  readonly provider: GceCloudProvider;
  readonly billing: CloudCatalogClient;
  readonly warnings: string[];
  close(): Promise<void>;
}

export async function startGceRig(
  opts: {
    emulator?: GceEmulatorOptions;
    readPrices?: (shapes: readonly TypeShape[]) => Promise<GcePriceBook>;
    operationTimeoutMs?: number;
    /** The Resource Manager tag the provider binds to its launches (KRAFTSMAN_GCP_TAG_KEY / _VALUE). */
    deploymentTag?: { key: string; value: string };
  } = {},
): Promise<GceRig> {
  // A second project, so a providerID can name a VM this deployment does not own.
  const emulator = await startGceEmulator({ zones: ZONES, otherProjects: [OTHER_PROJECT], ...opts.emulator });
  const clients = createComputeClients(fakeAuth(), {
    host: '127.0.0.1',
    port: emulator.port,
    protocol: 'http',
  });
  const billing = new CloudCatalogClient({
    apiEndpoint: '127.0.0.1',
    port: emulator.port,
    protocol: 'http',
    fallback: true,
    authClient: fakeAuth(),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
  const warnings: string[] = [];
  const provider = new GceCloudProvider({
    clients,
    config: parseGceProviderConfig({
      clusterName: 'test',
      project: 'kraftsman-test',
      region: 'us-central1',
      zones: [...ZONES],
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 },
      ...(opts.operationTimeoutMs ? { operationTimeoutMs: opts.operationTimeoutMs } : {}),
      ...(opts.deploymentTag ? { deploymentTag: opts.deploymentTag } : {}),
    }),
    clock: systemClock,
    fallbackCatalog: gceCatalog(),
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => void warnings.push(m),
      error: () => undefined,
    },
    sleep: async () => undefined,
    readPrices: opts.readPrices ?? billingPriceReader(billing),
    deployment: async () => RIG_DEPLOYMENT,
  });
  return {
    emulator,
    clients,
    provider,
    billing,
    warnings,
    close: async () => {
      await clients.close();
      await billing.close();
      await emulator.close();
    },
  };
}
