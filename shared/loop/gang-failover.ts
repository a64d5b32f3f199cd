// Cross-cloud gang failover in the provisioning batch (docs/mechanisms/gangs.md#cross-cloud-failover): before the
// solve, gangs whose last launch a cloud refused for capacity are kept off that cloud when another cloud's
// NodePools admit them; after it, each such gang gets an event naming both clouds and a metric — GangFailover
// when it moved, GangFailed only when no other cloud admits it or none can take it now.
import { CLOUD, CLOUDS, VOLCANO_GROUP, VOLCANO_GROUP_ALT, type Cloud } from '../model/labels.ts';
import { podKey, type Pod } from '../model/pod.ts';
import {
  failoverOutcomes,
  offCloud,
  refusedFor,
  voidClaimsByUnit,
  type FailoverOutcome,
  type RefusedUnit,
} from '../provisioning/gang-failover.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { incompatibleWithEveryPool } from '../provisioning/verdicts.ts';
import type { SchedulingOptions, SchedulingResult } from '../scheduling/scheduler.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { gangName } from '../state/pods.ts';
import type { PassView } from '../state/scheduling-view.ts';
import type { Nomination } from '../ports/state-store/records.ts';
import type { BatchDeps } from './provision-batch.ts';
import { publishEvents } from './events.ts';

export const GANG_FAILOVER_REASON = 'GangFailover';
export const GANG_FAILED_REASON = 'GangFailed';

export interface FailoverPlan {
  /** The batch's demand, members of movable refused gangs kept off the cloud that refused them. */
  readonly pods: readonly Pod[];
  readonly refused: readonly RefusedUnit[];
  readonly movable: ReadonlySet<string>;
}

/**
 * A pod's launch unit by default: its gang within its namespace (the scheduler's gang identity). Another kind of
 * all-or-nothing launch (an atomic ProvisioningRequest's pods) passes its own `unitOf` to planFailover.
 */
export const gangUnitOf = (p: Pod): string | undefined => {
  const g = gangName(p);
  return g === undefined ? undefined : `${p.metadata.namespace ?? 'default'}/${g}`;
};

/** Finds the refused gangs among the demand (one launch record read per gang whose claim is gone). */
export async function planFailover(
  deps: Pick<BatchDeps, 'store'>,
  cluster: string,
  objects: ClusterObjects,
  nominations: ReadonlyMap<string, Nomination>,
  demand: readonly Pod[],
  everyOffering: () => { view: PassView; options: SchedulingOptions },
  now: Date,
  unitOf: (p: Pod) => string | undefined = gangUnitOf,
): Promise<FailoverPlan> {
  const claims = new Set(objects.nodeClaims.map((c) => c.metadata.name));
  const units = voidClaimsByUnit(
    demand,
    unitOf,
    (p) => nominations.get(podKey(p))?.claimName,
    (n) => claims.has(n),
  );
  const refused: RefusedUnit[] = [];
  for (const [unit, { claim, members }] of units) {
    const record = await deps.store.getLaunch(cluster, claim);
    const from = refusedFor(record, now);
    if (from) refused.push({ unit, from, members });
  }
  if (refused.length === 0) return { pods: demand, refused, movable: new Set() };
  const { view, options } = everyOffering();
  const movable = new Set<string>();
  for (const r of refused) {
    // The other cloud admits the gang when each member, kept off the refusing cloud, fits some NodePool on its
    // own with every offering available (the verdicts' judgement; gang and pod ties are not pool questions).
    const alone = r.members.map((p) => withoutTies(offCloud(p, r.from)));
    if (incompatibleWithEveryPool(view, alone, options).size === 0) movable.add(r.unit);
  }
  const confined = new Map<string, Pod>();
  for (const r of refused)
    if (movable.has(r.unit)) for (const p of r.members) confined.set(podKey(p), offCloud(p, r.from));
  return { pods: demand.map((p) => confined.get(podKey(p)) ?? p), refused, movable };
}

/** The pod without what ties it to other pods (its gang, pod affinities, spreads): only pools decide. */
function withoutTies(p: Pod): Pod {
  const annotations = { ...p.metadata.annotations };
  delete annotations[VOLCANO_GROUP];
  delete annotations[VOLCANO_GROUP_ALT];
  const spec = { ...p.spec, topologySpreadConstraints: [] };
  delete spec.workloadRef;
  delete spec.schedulingGroup;
  const nodeAffinity = spec.affinity?.nodeAffinity;
  if (spec.affinity) spec.affinity = nodeAffinity ? { nodeAffinity } : {};
  return { ...p, metadata: { ...p.metadata, annotations }, spec };
}

/** Events on each member and the failover metrics, once the batch has placed (or not) the refused gangs. */
export async function reportFailover(
  deps: Pick<BatchDeps, 'cluster' | 'logger' | 'metrics'>,
  plan: FailoverPlan,
  result: Pick<SchedulingResult, 'placements' | 'errors'>,
  objects: ClusterObjects,
  at: Date,
): Promise<FailoverOutcome[]> {
  if (plan.refused.length === 0) return [];
  const nodeCloud = new Map(
    objects.nodes.map((n) => [n.metadata.name, CLOUDS.find((c) => c === n.metadata.labels?.[CLOUD])]),
  );
  const cloudOf = (key: string): Cloud | undefined => {
    const p = result.placements.get(key);
    if (!p) return undefined;
    return p.kind === 'new' ? p.claim.template.cloud : nodeCloud.get(p.node);
  };
  const outcomes = failoverOutcomes(plan.refused, plan.movable, cloudOf, (k) => result.errors.get(k));
  const members = new Map(plan.refused.map((r) => [r.unit, r.members]));
  const events = outcomes.flatMap((o) =>
    (members.get(o.unit) ?? []).map((p) => ({
      involved: {
        kind: 'Pod' as const,
        name: p.metadata.name,
        namespace: p.metadata.namespace ?? 'default',
        ...(p.metadata.uid ? { uid: p.metadata.uid } : {}),
      },
      type: o.kind === 'moved' ? ('Normal' as const) : ('Warning' as const),
      reason: o.kind === 'moved' ? GANG_FAILOVER_REASON : GANG_FAILED_REASON,
      message: messageOf(o),
      at,
      dedupeValues: [p.metadata.uid ?? podKey(p), o.kind, o.from],
    })),
  );
  for (const o of outcomes) {
    if (o.kind === 'moved')
      deps.metrics.count(M.gangFailoversTotal, 1, { [L.fromCloud]: o.from, [L.toCloud]: o.to });
    else deps.metrics.count(M.gangFailoverFailuresTotal, 1, { [L.fromCloud]: o.from, [L.reason]: o.kind });
    const fields = { gang: o.unit, outcome: o.kind };
    if (o.kind === 'moved') deps.logger.info(messageOf(o), fields);
    else deps.logger.warn(messageOf(o), fields);
  }
  await publishEvents(deps, events);
  return outcomes;
}

/** What a person reads: the gang, the cloud that refused it, and what the other cloud did. */
export function messageOf(o: FailoverOutcome): string {
  const head = `gang ${o.unit} refused for capacity on ${o.from}`;
  switch (o.kind) {
    case 'moved':
      return `${head}: launching it whole on ${o.to}`;
    case 'pinned':
      return `${head}; its requirements admit no NodePool on ${o.others.join(', ')}: not moved, retried on ${o.from}'s other offerings`;
    case 'exhausted':
      return `${head}; ${o.others.join(', ')} cannot take it now either: ${o.why}`.slice(0, 1024);
  }
}
