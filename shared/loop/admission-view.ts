// The open commands admission validates against (docs/mechanisms/batched-admission.md, "When reads lag").
// The store's open-commands read is a GSI query, eventually consistent on DynamoDB: a command admitted a
// moment ago may be missing from it, and a proposal validated on that view would find its pool's budget
// unspent and the earlier command's candidates and replacements free. So the view is completed before each
// validation, in this order:
//   1. carried forward in process: every command this admission recorded counts as open, whatever the index
//      says (its candidates marked for deletion and charged to the budget, its replacements nominated);
//   2. read strongly: a node that carries the disrupted taint, or that the proposal names, but that no command
//      of the view names is looked up by candidate in the base table (consistent reads), so a command of an
//      earlier admitter the index has not caught up with still counts.
// In the steady state (the index caught up, the settling delay is 15 s) step 2 reads nothing.
import { DISRUPTED_TAINT_KEY } from '../model/labels.ts';
import { OPEN_COMMAND_STATUSES } from '../ports/state-store/command-states.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CommandRecord, PassState } from '../ports/state-store/records.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';

/** What one admission has recorded so far: the commands it carries forward to the next validation. */
export class CarriedCommands {
  private readonly byId = new Map<string, CommandRecord>();

  add(record: CommandRecord): void {
    this.byId.set(record.id, record);
  }

  get records(): readonly CommandRecord[] {
    return [...this.byId.values()];
  }
}

/**
 * The pass state with its open commands completed by the carried commands and by consistent reads for the
 * nodes the view cannot account for (`proposed`: the next proposal's candidates).
 */
export async function completeOpenCommands(
  store: Pick<StateStore, 'findCommandsByCandidate'>,
  cluster: string,
  state: PassState,
  snapshot: ClusterSnapshot,
  carried: CarriedCommands,
  proposed: readonly string[],
): Promise<PassState> {
  const open = new Map(state.openCommands.map((c) => [c.id, c]));
  for (const c of carried.records) if (!open.has(c.id)) open.set(c.id, c);
  const named = new Set([...open.values()].flatMap((c) => c.candidates));
  const tainted = snapshot.nodes
    .filter((n) => n.taints.some((t) => t.key === DISRUPTED_TAINT_KEY))
    .map((n) => n.name);
  const unaccounted = [...new Set([...tainted, ...proposed])].filter((n) => !named.has(n));
  const found = await Promise.all(unaccounted.map((n) => store.findCommandsByCandidate(cluster, n)));
  for (const c of found.flat())
    if (OPEN_COMMAND_STATUSES.includes(c.status) && !open.has(c.id)) open.set(c.id, c);
  if (open.size === state.openCommands.length) return state;
  return { ...state, openCommands: [...open.values()].sort((a, b) => a.seq - b.seq) };
}
