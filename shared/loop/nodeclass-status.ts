// Node-class status as Karpenter's node-class controller publishes it (docs/observability.md, "Node classes"),
// written by lifecycle each run: EC2NodeClass status.amis / subnets / securityGroups / instanceProfile with
// AMIsReady, SubnetsReady, SecurityGroupsReady, InstanceProfileReady, ValidationSucceeded and their root Ready
// (pkg/apis/v1/ec2nodeclass_status.go); GCENodeClass status.images / subnetwork / serviceAccount with ImagesReady,
// ValidationSucceeded and Ready. Written only when it changed, as a merge patch of /status pinned to the
// resourceVersion read; a conflict waits for the next run. The resolution comes from the cloud's provider, which
// re-reads it at most every few minutes (describeNodeClass).
import type { Cloud } from '../model/labels.ts';
import { joinProblem } from '../model/join-readiness.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { NodeClassResolution, Resolved } from '../model/nodeclass-status.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { ConflictError, ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import { sameConditions, setCondition, transitionEvents, withRoot, type Conditions } from './conditions.ts';
import { publishEvents, type EventDeps } from './events.ts';

/** EC2NodeClass.StatusConditions() dependents kraftsman judges (no placement groups, no reservations' own). */
export const EC2_READY_DEPENDENTS = [
  'AMIsReady',
  'SubnetsReady',
  'SecurityGroupsReady',
  'InstanceProfileReady',
  'ValidationSucceeded',
] as const;
export const GCE_READY_DEPENDENTS = ['ImagesReady', 'ValidationSucceeded'] as const;

export interface NodeClassStatusDeps extends EventDeps {
  readonly cluster: Pick<Cluster, 'patchStatus' | 'recordEvent'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly providers: Readonly<Partial<Record<Cloud, Pick<CloudProvider, 'describeNodeClass'>>>>;
}

export interface NodeClassStatus {
  /** The status fields; null removes one (a part that no longer resolves: Karpenter sets it nil). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly conditions: Conditions;
}

type Current = Record<string, unknown> & { conditions?: Conditions };
const currentOf = (nc: NodeClass): Current => ((nc as { status?: Current }).status ?? {}) as Current;
const valueOr = <T>(r: Resolved<T>): T | null => (r.ok ? r.value : null);

/** One condition from one part: True when it resolved, else False with the part's reason and message. */
function fromPart(c: Conditions | undefined, type: string, r: Resolved<unknown>, now: Date): Conditions {
  return r.ok ? setCondition(c, type, 'True', now) : setCondition(c, type, 'False', now, r.reason, r.message);
}

export function desiredNodeClassStatus(nc: NodeClass, r: NodeClassResolution, now: Date): NodeClassStatus {
  let c = currentOf(nc).conditions;
  // kraftsman's own validation (docs/mechanisms/bootstrap.md): a class whose nodes could not join is not valid.
  const cannotJoin = joinProblem(nc);
  c = cannotJoin
    ? setCondition(c, 'ValidationSucceeded', 'False', now, 'BootstrapIncomplete', cannotJoin)
    : setCondition(c, 'ValidationSucceeded', 'True', now);
  if (r.kind === 'EC2NodeClass') {
    c = fromPart(c, 'AMIsReady', r.amis, now);
    c = fromPart(c, 'SubnetsReady', r.subnets, now);
    c = fromPart(c, 'SecurityGroupsReady', r.securityGroups, now);
    c = fromPart(c, 'InstanceProfileReady', r.instanceProfile, now);
    return {
      fields: {
        amis: valueOr(r.amis),
        subnets: valueOr(r.subnets),
        securityGroups: valueOr(r.securityGroups),
        instanceProfile: valueOr(r.instanceProfile),
      },
      conditions: withRoot(c, EC2_READY_DEPENDENTS, now),
    };
  }
  c = fromPart(c, 'ImagesReady', r.images, now);
  return {
    fields: {
      images: valueOr(r.images),
      subnetwork: r.subnetwork ?? null,
      serviceAccount: r.serviceAccount ?? null,
    },
    conditions: withRoot(c, GCE_READY_DEPENDENTS, now),
  };
}

/** A field's value as written: absent and null are the same (a merge patch's null removes it). */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const CLOUD_OF: Readonly<Record<NodeClass['kind'], Cloud>> = { EC2NodeClass: 'aws', GCENodeClass: 'gcp' };

/** Writes every node class whose status changed; returns how many were written. */
export async function publishNodeClassStatuses(
  deps: NodeClassStatusDeps,
  objects: ClusterObjects,
): Promise<number> {
  const now = deps.clock.now();
  let written = 0;
  for (const nc of objects.nodeClasses) {
    const provider = deps.providers[CLOUD_OF[nc.kind]];
    if (!provider?.describeNodeClass || nc.metadata.deletionTimestamp) continue;
    const where = { kind: nc.kind, name: nc.metadata.name };
    let resolution: NodeClassResolution;
    try {
      resolution = await provider.describeNodeClass(nc);
    } catch (err: unknown) {
      // Karpenter's controller returns the error and keeps the last status: so does this run.
      deps.logger.warn('could not resolve a node class for its status', { ...where, error: String(err) });
      continue;
    }
    const current = currentOf(nc);
    const next = desiredNodeClassStatus(nc, resolution, now);
    const changed = Object.entries(next.fields).some(([k, v]) => !same(current[k], v));
    if (!changed && sameConditions(current.conditions, next.conditions)) continue;
    try {
      await deps.cluster.patchStatus(nc.kind, nc.metadata.name, nc.metadata.resourceVersion ?? '', {
        ...next.fields,
        conditions: next.conditions,
      });
    } catch (err: unknown) {
      if (err instanceof ConflictError || err instanceof ObjectNotFoundError) continue; // the next run
      throw err;
    }
    written += 1;
    const involved = { ...where, ...(nc.metadata.uid ? { uid: nc.metadata.uid } : {}) };
    await publishEvents(deps, transitionEvents(involved, current.conditions, next.conditions, now));
  }
  return written;
}
