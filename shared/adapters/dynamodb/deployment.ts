// The deployment id on DynamoDB: one item per cluster, created by whoever reads it first and never changed,
// so two deployments sharing a cluster name (in one GCP project or AWS account) tell their instances apart.
import { ConditionFailedError } from '../../ports/state-store/errors.ts';
import { deploymentKey } from './keys.ts';
import type { Table } from './table.ts';

/*
 * Deployment id timeline:
 *   reader A ── [DEPLOYMENT item | NOT_EXISTS] put id-A ── ok → id-A
 *   reader B ── [DEPLOYMENT item | NOT_EXISTS] put id-B ── lost (ALL_OLD = id-A) → id-A
 *   A retried put that already applied is lost to itself and answers its own id: every reader ends with one id.
 */
export async function getOrCreateDeployment(
  table: Table,
  cluster: string,
  candidate: string,
): Promise<string> {
  const key = deploymentKey(cluster);
  const stored = await table.get(key);
  if (typeof stored?.id === 'string') return stored.id;
  const out = await table.putIfAbsent(key, { id: candidate });
  if (out.ok) return candidate;
  if (typeof out.old?.id === 'string') return out.old.id;
  throw new ConditionFailedError(
    `deployment id of ${cluster}: the put lost, yet no id is stored`,
    undefined,
    {
      cause: out.cause,
    },
  );
}
