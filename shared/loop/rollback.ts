// Rolling a command back by identity (docs/functions/orchestrate.md): its candidates are untainted, and each
// replacement it created goes — every instance recorded for it (the claim's providerID and its launch
// record's, so an instance whose claim was deleted still goes), then its NodeClaim and Node by uid.
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { removeOwned, terminate, untaint } from './command-actions.ts';
import { getOrAbsent } from './command-identity.ts';
import { clearDisruptionReason } from './disruption-reason.ts';
import type { SettleDeps } from './candidate-remains.ts';
import { refuse } from './refusals.ts';
import { ownsReplacement } from './replacements.ts';
import type { Guard } from './guard.ts';
import { nodeClaimName } from '../model/names.ts';

export interface RollbackDeps extends SettleDeps {
  readonly store: StateStore;
}

/** The pass's view: its nodes by name, and the guard its invalid objects make (guard.ts). */
export interface RollbackView {
  readonly nodes: ReadonlyMap<string, Node>;
  readonly guard: Pick<Guard, 'touchable'>;
}

/** True once every replacement is gone; false while an invalid object keeps one untouchable (retried later). */
export async function rollBack(deps: RollbackDeps, view: RollbackView, cmd: CommandRecord): Promise<boolean> {
  // Untainting is not destructive: a Node that took a candidate's name carries no taint of ours anyway.
  for (const c of cmd.candidates) await untaint(deps, c);
  // Karpenter clears the DisruptionReason condition of a failed command's candidates with their taint.
  for (const c of cmd.identities ?? []) if (c.claim) await clearDisruptionReason(deps.cluster, c.claim);
  let done = true;
  for (const r of cmd.replacements) {
    const target = { claim: r, providerId: (await deps.store.getLaunch(cmd.cluster, r))?.providerId };
    if (await view.guard.touchable('terminate', target, { kind: 'NodeClaim', name: r }))
      await removeReplacement(deps, view.nodes, cmd, r);
    else done = false;
  }
  return done;
}

async function removeReplacement(
  deps: RollbackDeps,
  nodes: ReadonlyMap<string, Node>,
  cmd: CommandRecord,
  name: string,
): Promise<void> {
  const found = await getOrAbsent(() => deps.cluster.getNodeClaim(name));
  const claim = found && ownsReplacement(cmd, found) ? found : undefined;
  if (found && !claim)
    await refuse(deps, {
      action: 'delete-nodeclaim',
      reason: 'identity-mismatch',
      message: `NodeClaim ${name} is not the replacement command ${cmd.id} created; left in place`,
      object: { kind: 'NodeClaim', name, uid: found.metadata.uid },
    });
  const launch = await deps.store.getLaunch(cmd.cluster, name);
  const recorded = launch?.commandId === cmd.id ? launch.providerId : undefined;
  const instances = [...new Set([claim?.status?.providerID, recorded].filter((x) => x !== undefined))];
  const labels = { ...(claim?.metadata.labels ?? {}) };
  // Each instance must still be this deployment's and tagged for this replacement (else refused, visibly).
  const expect = { nodeClaim: nodeClaimName(name), object: { kind: 'NodeClaim' as const, name } };
  for (const id of instances) await terminate(deps, id, labels, expect);
  if (claim) await removeOwned(deps, { providerId: undefined, claim: ownedRef(claim) });
  for (const node of await registered(deps, nodes, claim, instances))
    await removeOwned(deps, { providerId: undefined, node: ownedRef(node) });
}

/** Nodes that registered from the replacement's instances, re-read: only one still on such an instance goes. */
async function registered(
  deps: RollbackDeps,
  nodes: ReadonlyMap<string, Node>,
  claim: NodeClaim | undefined,
  instances: readonly string[],
): Promise<Node[]> {
  const names = new Set<string>();
  if (claim?.status?.nodeName) names.add(claim.status.nodeName);
  for (const [n, node] of nodes)
    if (node.spec?.providerID && instances.includes(node.spec.providerID)) names.add(n);
  const out: Node[] = [];
  for (const n of names) {
    const node = await getOrAbsent(() => deps.cluster.getNode(n));
    if (node?.spec?.providerID && instances.includes(node.spec.providerID)) out.push(node);
  }
  return out;
}

const ownedRef = (o: Node | NodeClaim) => ({ name: o.metadata.name, uid: o.metadata.uid });
