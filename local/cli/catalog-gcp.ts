// `kraftsman catalog --cloud gcp`: not yet implemented (docs/catalog.md says what remains).
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import { InputError } from './errors.ts';

export function readGcpCatalog(region: string): Promise<InstanceTypeSpec[]> {
  return Promise.reject(
    new InputError(`catalog --cloud gcp (region ${region}) is not implemented yet: use --extra-types`),
  );
}
