// This deployment's id, read once per container from the state store (created there by the first reader):
// the cloud adapters label every launch with it and act only on instances that carry it
// (docs/mechanisms/identity.md#instances).
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { StateStore } from '../../shared/ports/state-store/index.ts';
import { oncePerContainer } from './container.ts';

/** `nonce` proposes the id should none be stored yet (a fresh random token, lowercase: a valid GCE label value). */
export function deploymentSource(
  store: Pick<StateStore, 'deploymentId'>,
  clusterName: string,
  nonce: () => string,
): DeploymentSource {
  return oncePerContainer(() => store.deploymentId(clusterName, nonce().toLowerCase()));
}
