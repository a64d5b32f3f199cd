// The NodeClaim a command's replacement becomes (Karpenter's StartCommand creates them before it taints
// nothing more): the pool's template plus the replacement's narrowed requirements, labelled with the command
// that owns it, so orchestration can roll it back and lifecycle can tell replacements from provisioned claims.
import { INSTANCE_TYPE, NODEPOOL, TERMINATION_FINALIZER } from '../model/labels.ts';
import { nodeClaimSchema, type NodeClaim } from '../model/nodeclaim.ts';
import type { NodePool } from '../model/nodepool.ts';
import { ORIGIN_ANNOTATION, type Origin } from '../provisioning/nodeclaims.ts';
import type { Replacement } from './types.ts';

/** The origin a replacement claim is annotated with (kraftsman.dev/origin). */
export const REPLACEMENT_ORIGIN: Origin = 'disruption';

/** Label naming the command a replacement claim was created for. */
export const COMMAND_LABEL = 'kraftsman.dev/disruption-command';

export function replacementClaim(
  r: Pick<Replacement, 'nodePool' | 'instanceTypes' | 'requirements'>,
  name: string,
  pool: NodePool,
  commandId: string,
): NodeClaim {
  const spec = pool.spec.template.spec;
  const requirements = r.requirements.filter((q) => q.key !== INSTANCE_TYPE);
  requirements.push({ key: INSTANCE_TYPE, operator: 'In', values: [...r.instanceTypes] });
  // Parsed, so the claim is checked against the model before it reaches the API server.
  return nodeClaimSchema.parse({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      // Lifetime metrics split replacements from provisioned claims by this (docs/functions/lifecycle.md#observability).
      annotations: {
        ...(pool.spec.template.metadata?.annotations ?? {}),
        [ORIGIN_ANNOTATION]: REPLACEMENT_ORIGIN,
      },
      labels: {
        ...(pool.spec.template.metadata?.labels ?? {}),
        [NODEPOOL]: r.nodePool,
        [COMMAND_LABEL]: commandId,
      },
      // As every claim kraftsman creates: a deletion drains and terminates before the claim goes.
      finalizers: [TERMINATION_FINALIZER],
    },
    spec: {
      nodeClassRef: spec.nodeClassRef,
      requirements: requirements.map((q) => ({ key: q.key, operator: q.operator, values: [...q.values] })),
      ...(spec.taints ? { taints: spec.taints } : {}),
      ...(spec.startupTaints ? { startupTaints: spec.startupTaints } : {}),
      ...(spec.expireAfter ? { expireAfter: spec.expireAfter } : {}),
      ...(spec.terminationGracePeriod ? { terminationGracePeriod: spec.terminationGracePeriod } : {}),
    },
  });
}

/** Replacement claim names derive from the command id, so a recovery finds them from the command record. */
export const replacementName = (nodePool: string, commandId: string, i: number): string =>
  `${nodePool}-${commandId.slice(0, 10)}-${i}`.toLowerCase();
