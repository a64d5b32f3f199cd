// NodePool readiness as Karpenter v1.14 derives it (nodepool/readiness controller; docs/mechanisms/pool-readiness.md):
// a NodePool whose node class is missing, terminating or not Ready is NotReady, and the provisioner's scheduler
// (provisioner.go NewScheduler) and every disruption simulation skip it — the next pool by weight is used.
import { joinProblem } from '../model/join-readiness.ts';
import { instanceProfileProblem } from '../model/node-identity.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { NodePool } from '../model/nodepool.ts';

/** Why a NodePool is NotReady: the NodeClassReady=False condition Karpenter writes on it. */
export interface PoolNotReady {
  readonly condition: 'NodeClassReady';
  readonly reason: string;
  readonly message: string;
}

interface Condition {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly reason?: unknown;
  readonly message?: unknown;
}

/** The node class's own Ready condition, if its status carries one. */
function readyCondition(nodeClass: NodeClass): Condition | undefined {
  const status = (nodeClass as { status?: { conditions?: unknown } }).status;
  const conditions = Array.isArray(status?.conditions) ? (status.conditions as Condition[]) : [];
  return conditions.find((c) => c?.type === 'Ready');
}

const text = (v: unknown, fallback: string): string => (typeof v === 'string' && v ? v : fallback);

/**
 * Undefined when the pool may be scheduled on. Karpenter's readiness controller: NodeClassNotFound,
 * NodeClassTerminating, the class's own Ready=False reason, NodeClassReadinessUnknown. A node class whose status
 * carries no Ready condition yet counts as Ready (lifecycle writes it, shared/loop/nodeclass-status.ts); but one
 * that cannot produce a join (BootstrapIncomplete, model/join-readiness.ts) or has no instance profile
 * (InstanceProfileNotReady, model/node-identity.ts) is NotReady whatever its status says.
 */
export function poolNotReady(pool: NodePool, nodeClass: NodeClass | undefined): PoolNotReady | undefined {
  const ref = pool.spec.template.spec.nodeClassRef;
  const notReady = (reason: string, message: string): PoolNotReady => ({
    condition: 'NodeClassReady',
    reason,
    message,
  });
  if (!nodeClass) return notReady('NodeClassNotFound', `${ref.kind} ${ref.name} not found`);
  if (nodeClass.metadata.deletionTimestamp)
    return notReady('NodeClassTerminating', `${ref.kind} ${ref.name} is terminating`);
  // kraftsman's own readiness rule (docs/mechanisms/bootstrap.md): a class whose nodes could not join never launches.
  const cannotJoin = joinProblem(nodeClass);
  if (cannotJoin) return notReady('BootstrapIncomplete', `${ref.kind} ${ref.name}: ${cannotJoin}`);
  // Exactly one of spec.role / spec.instanceProfile (docs/mechanisms/instance-profiles.md): never a launch without one.
  const noProfile = instanceProfileProblem(nodeClass);
  if (noProfile) return notReady('InstanceProfileNotReady', `${ref.kind} ${ref.name}: ${noProfile}`);
  const ready = readyCondition(nodeClass);
  if (!ready || ready.status === 'True') return undefined;
  if (ready.status === 'False')
    return notReady(
      text(ready.reason, 'NodeClassNotReady'),
      text(ready.message, `${ref.kind} ${ref.name} is not ready`),
    );
  return notReady('NodeClassReadinessUnknown', `${ref.kind} ${ref.name} readiness unknown`);
}

/** One line per NotReady pool, for logs and verdict reasons. */
export const describeNotReady = (pool: string, r: PoolNotReady): string =>
  `NodePool ${pool} not ready (${r.condition}=False, ${r.reason}: ${r.message})`;
