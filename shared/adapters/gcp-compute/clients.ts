// The Compute Engine SDK clients the adapter uses, built once per container from one auth client.
// Transport is REST (fallback) so that the same clients talk to the emulator in tests.
// One file per client: the package index loads every API version's clients (~70 MB once bundled), these four
// load one (npm run bench:bundle).
import { AcceleratorTypesClient } from '@google-cloud/compute/build/src/v1/accelerator_types_client.js';
import { InstancesClient } from '@google-cloud/compute/build/src/v1/instances_client.js';
import { MachineTypesClient } from '@google-cloud/compute/build/src/v1/machine_types_client.js';
import { ZoneOperationsClient } from '@google-cloud/compute/build/src/v1/zone_operations_client.js';
import type { AuthClient } from 'google-auth-library';

export interface ComputeClients {
  readonly instances: InstancesClient;
  readonly operations: ZoneOperationsClient;
  readonly machineTypes: MachineTypesClient;
  readonly acceleratorTypes: AcceleratorTypesClient;
  close(): Promise<void>;
}

/** `endpoint` is for tests (the emulator on 127.0.0.1); production uses the default API endpoint. */
export function createComputeClients(
  authClient: AuthClient,
  endpoint?: { host: string; port: number; protocol: 'http' | 'https' },
): ComputeClients {
  const options = {
    fallback: true,
    authClient,
    ...(endpoint ? { apiEndpoint: endpoint.host, port: endpoint.port, protocol: endpoint.protocol } : {}),
  } as unknown as ConstructorParameters<typeof InstancesClient>[0];
  const clients = {
    instances: new InstancesClient(options),
    operations: new ZoneOperationsClient(options),
    machineTypes: new MachineTypesClient(options),
    acceleratorTypes: new AcceleratorTypesClient(options),
  };
  return {
    ...clients,
    close: async () => void (await Promise.all(Object.values(clients).map((c) => c.close()))),
  };
}
