// A gang placed all or nothing (docs/mechanisms/gangs.md), on one cloud (gang-cloud.ts): the scheduler hands in
// its journal, topology, errors and single-pod placement; a placement that spans clouds is undone and tried
// again confined to each of those clouds, most members first, and refused whole when none holds the gang.
import type { Cloud } from '../model/labels.ts';
import { cloudsByMembers, splitGangError } from './gang-cloud.ts';
import { placeInOneZone } from './place-gang-zone.ts';
import type { Journal } from './journal.ts';
import type { PodState } from './pod-state.ts';
import type { Topology } from './topology.ts';

/** What placing a gang needs of the scheduler. */
export interface GangContext {
  readonly journal: Journal;
  readonly topology: Topology;
  readonly errors: Map<string, string>;
  /** Places one pod on a node, an opened claim or a new one; the reason it cannot otherwise. */
  add(pod: PodState): string | undefined;
  /** The cloud a placed pod landed on (undefined: not placed, or a node without the cloud label). */
  cloudOf(pod: PodState): Cloud | undefined;
  /** Confines placements to one cloud's nodes, claims and NodePools (undefined: any cloud). */
  confine(cloud: Cloud | undefined): void;
  /** Every zone a node or NodePool of the run offers, sorted. */
  zones(): string[];
  /** The zones of the nodes hosting the gang's running members (undefined: none runs). */
  runningZones(gang: string): ReadonlySet<string> | undefined;
  /** Whether a claim the members were placed on comes from a node class that asks gangs for one zone. */
  asksOneZone(members: readonly PodState[]): boolean;
  /** How many claims the run has opened, and what those opened since then cost (the cheapest offering of each). */
  claimsOpened(): number;
  costSince(opened: number): number;
}

export interface GangOutcome {
  readonly placed: number;
  readonly rounds: number;
  readonly committed: boolean;
}

// One cloud per gang (gang-cloud.ts): a placement that spans clouds is undone and tried again on each of
// those clouds alone, most members first; none holding the gang refuses it whole. A gang that asks for one zone
// (its annotation, or a node class of its claims) is placed one zone at a time instead (place-gang-zone.ts): a zone
// is in one cloud, so that confines it to one cloud too.
export function placeGang(
  ctx: GangContext,
  name: string,
  minMember: number,
  members: PodState[],
  oneZone = false,
): GangOutcome {
  if (oneZone) return placeInOneZone(ctx, name, minMember, members, placeOnce);
  const restores = members.map((m) => m.save());
  const outer = ctx.journal.begin();
  const first = placeOnce(ctx, name, minMember, members);
  if (first.committed && ctx.asksOneZone(members)) {
    ctx.journal.rollback(outer);
    for (const restore of restores) restore();
    const zoned = placeInOneZone(ctx, name, minMember, members, placeOnce);
    return { ...zoned, rounds: first.rounds + zoned.rounds };
  }
  const clouds = first.committed ? cloudsByMembers(members.map((m) => ctx.cloudOf(m))) : [];
  if (clouds.length <= 1) {
    ctx.journal.commit();
    return first;
  }
  ctx.journal.rollback(outer);
  let rounds = first.rounds;
  const why: string[] = [];
  for (const cloud of clouds) {
    const mark = ctx.journal.begin();
    ctx.confine(cloud);
    for (const m of members) ctx.errors.delete(m.key);
    const attempt = placeOnce(ctx, name, minMember, members);
    ctx.confine(undefined);
    rounds += attempt.rounds;
    if (attempt.committed) {
      ctx.journal.commit();
      return { ...attempt, rounds };
    }
    why.push(`${cloud}: ${ctx.errors.get(members[0]?.key ?? '') ?? 'does not fit'}`);
    ctx.journal.rollback(mark);
  }
  for (const m of members) ctx.errors.set(m.key, splitGangError(name, clouds, why));
  return { placed: 0, rounds, committed: false };
}

// All or nothing: members are tried (each with its own relaxation) until a round places nothing; fewer
// than minMember placed rolls every placement of the gang back.
function placeOnce(ctx: GangContext, name: string, minMember: number, members: PodState[]): GangOutcome {
  const mark = ctx.journal.begin();
  let pending = [...members];
  const lastError = new Map<string, string>();
  let rounds = 0;
  for (let progress = true; progress && pending.length;) {
    progress = false;
    rounds++;
    const next: PodState[] = [];
    for (const m of pending) {
      const err = ctx.add(m);
      if (err === undefined) {
        progress = true;
        continue;
      }
      lastError.set(m.key, err);
      if (m.relax() !== undefined) {
        ctx.topology.update(m);
        progress = true;
      }
      next.push(m);
    }
    pending = next;
  }
  const placed = members.length - pending.length;
  if (placed >= minMember) {
    ctx.journal.commit();
    for (const m of pending)
      ctx.errors.set(m.key, `gang ${name}: member not placed beyond minMember (${lastError.get(m.key)})`);
    return { placed, rounds, committed: true };
  }
  ctx.journal.rollback(mark);
  const why = pending[0] ? lastError.get(pending[0].key) : undefined;
  for (const m of members) {
    ctx.errors.set(
      m.key,
      `gang ${name} cannot be placed all or nothing: ${placed} of minMember ${minMember} members fit${why ? ` (${why})` : ''}`,
    );
  }
  return { placed, rounds, committed: false };
}
