// Handing created claims to their cloud's launcher (launch-aws / launch-gcp): one invocation per claim, one per
// gang. A gang's members may come from NodePools with different node classes (a CPU master, GPU workers): each
// member's own node class travels in the payload (docs/mechanisms/gangs.md#mixed-shapes). The scheduler places a
// gang on one cloud; a gang that still names two goes whole to the first member's launcher, which refuses it.
import type { Cloud } from '../model/labels.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { Invoker } from '../ports/invoker.ts';
import type { Fence } from '../ports/state-store/records.ts';
import type { LaunchRequestPayload } from './launch-request.ts';
import { inParallel } from './parallel.ts';

/** A claim just created, as its launcher needs it. */
export interface LaunchUnitMember {
  readonly name: string;
  readonly cloud: Cloud;
  readonly nodeClass: NodeClass;
  readonly gang: string | undefined;
}

/** The payload of one launch: the first member's node class, and each other member's where it differs. */
export function launchPayload(fence: Fence, members: readonly LaunchUnitMember[]): LaunchRequestPayload {
  const first = members[0] as LaunchUnitMember;
  const differing = members.filter(
    (m) =>
      m.nodeClass.metadata.name !== first.nodeClass.metadata.name ||
      m.nodeClass.kind !== first.nodeClass.kind,
  );
  return {
    fence: { cluster: fence.cluster, name: fence.name, owner: fence.owner, token: fence.token },
    nodeClass: first.nodeClass,
    claims: members.map((m) => m.name),
    ...(differing.length
      ? { nodeClasses: Object.fromEntries(differing.map((m) => [m.name, m.nodeClass])) }
      : {}),
    ...(first.gang ? { gang: first.gang } : {}),
  };
}

/** One invocation per claim, one per gang, to the launcher of the (first) claim's cloud. Returns how many. */
export async function invokeLaunchers(
  invoker: Invoker,
  fence: Fence,
  created: readonly LaunchUnitMember[],
  parallelism: number,
): Promise<number> {
  const units = new Map<string, LaunchUnitMember[]>();
  for (const c of created) {
    const key = c.gang ?? `claim:${c.name}`;
    units.set(key, [...(units.get(key) ?? []), c]);
  }
  await inParallel([...units.values()], parallelism, async (members) => {
    const first = members[0] as LaunchUnitMember;
    await invoker.invoke(first.cloud === 'aws' ? 'launch-aws' : 'launch-gcp', launchPayload(fence, members));
  });
  return units.size;
}
