// A disruption command's story in the logs (docs/observability.md, "Decision logs"): one structured line when
// proposed, admitted or rejected (with the stage), completed or rolled back, each carrying the candidates by
// node name, so grepping the logs for a node reads its whole story. Skips are logged at debug, one per node.
import type { Skip } from '../disruption/types.ts';
import type { Proposal } from '../disruption/proposal.ts';
import type { Pod } from '../model/pod.ts';
import type { Logger } from '../ports/logger.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';

/** Pods named per line at most (the count is always whole). */
export const LOGGED_PODS = 20;
export const DECISION_MESSAGE = 'disruption decision';

export type Decision = 'proposed' | 'admitted' | 'rejected' | 'completed' | 'rolled-back' | 'failed';

/** The reason Karpenter's events and metrics use for a method (Empty, Drifted or Underutilized). */
export const reasonOfMethod = (method: string): 'Empty' | 'Drifted' | 'Underutilized' =>
  method === 'emptiness' ? 'Empty' : method === 'drift' ? 'Drifted' : 'Underutilized';

function podsOn(snapshot: ClusterSnapshot | undefined, candidates: readonly string[]) {
  if (!snapshot) return {};
  const wanted = new Set(candidates);
  const pods: Pod[] = snapshot.nodes.filter((n) => wanted.has(n.name)).flatMap((n) => [...n.pods]);
  return {
    podsMoved: pods.length,
    pods: pods.slice(0, LOGGED_PODS).map((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`),
  };
}

const replacementsOf = (p: Proposal) =>
  p.replacements.map((r) => ({
    nodePool: r.nodePool,
    instanceTypes: r.instanceTypes.slice(0, 5),
    zone: r.zone,
    capacityType: r.capacityType,
    price: r.price,
  }));

/** proposed / admitted / rejected: what the walk or admission decided about one proposal. */
export function logProposal(
  logger: Logger,
  decision: 'proposed' | 'admitted' | 'rejected',
  p: Proposal,
  extra: {
    readonly snapshot?: ClusterSnapshot;
    readonly commandId?: string;
    readonly stage?: string;
    readonly detail?: string;
  } = {},
): void {
  const fields = {
    decision,
    method: p.method,
    reason: p.reason,
    action: p.replacements.length ? 'replace' : 'delete',
    candidates: p.candidates,
    replacements: replacementsOf(p),
    savingsPerHour: p.savingsPerHour,
    ...podsOn(extra.snapshot, p.candidates),
    ...(extra.commandId ? { commandId: extra.commandId } : {}),
    ...(extra.stage ? { stage: extra.stage, detail: extra.detail } : {}),
  };
  if (decision === 'rejected') logger.warn(DECISION_MESSAGE, fields);
  else logger.info(DECISION_MESSAGE, fields);
}

/** completed / rolled back / given up: how a command ended, as orchestration saw it. */
export function logOutcome(
  logger: Logger,
  decision: 'completed' | 'rolled-back' | 'failed',
  cmd: CommandRecord,
  extra: { readonly error?: string } = {},
): void {
  const fields = {
    decision,
    commandId: cmd.id,
    method: cmd.method,
    reason: reasonOfMethod(cmd.method),
    action: cmd.decision,
    candidates: cmd.candidates,
    replacements: cmd.replacements,
    ...(cmd.savingsPerHour !== undefined ? { savingsPerHour: cmd.savingsPerHour } : {}),
    ...(extra.error ? { error: extra.error } : {}),
  };
  if (decision === 'completed') logger.info(DECISION_MESSAGE, fields);
  else logger.warn(DECISION_MESSAGE, fields);
}

/** Debug: why each node the pass considered was not disrupted. */
export function logSkips(logger: Logger, skips: readonly Skip[]): void {
  for (const s of skips)
    logger.debug('disruption candidate skipped', {
      node: s.node,
      reason: s.reason,
      ...(s.method ? { method: s.method } : {}),
    });
}
