// What the Compute Engine adapter's helpers share: clients, settings, clock, and `call`, which
// retries rate limiting and translates errors into the CloudProvider contract.
import type { Clock } from '../../ports/clock.ts';
import type { ComputeClients } from './clients.ts';
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import type { Sleep } from '../backoff.ts';

export type Call = <T>(what: string, op: () => Promise<T>) => Promise<T>;

export interface GceContext {
  readonly clients: ComputeClients;
  readonly config: GceProviderConfig;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly call: Call;
}
