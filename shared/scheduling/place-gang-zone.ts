// One zone per gang (docs/mechanisms/gangs.md#placement): a gang that asks for it is placed confined to each
// candidate zone in turn, all or nothing, and kept in the cheapest zone that holds it whole; members already
// running fix the zone. No zone holding it refuses the gang whole, with a reason naming it and each zone's answer.
import { ZONE } from '../model/labels.ts';
import type { ExistingNodeInput } from './nodes.ts';
import type { GangContext, GangOutcome } from './place-gang.ts';
import type { PodState } from './pod-state.ts';
import { Requirement } from './requirement.ts';
import { Requirements } from './requirement-set.ts';
import type { NodeClaimTemplate } from './template.ts';

/** One all-or-nothing placement of the gang as it stands (place-gang.ts's placeOnce). */
export type PlaceOnce = (
  ctx: GangContext,
  name: string,
  minMember: number,
  members: PodState[],
) => GangOutcome;

export function placeInOneZone(
  ctx: GangContext,
  name: string,
  minMember: number,
  members: PodState[],
  placeOnce: PlaceOnce,
): GangOutcome {
  const running = ctx.runningZones(name);
  if (running && running.size > 1) {
    const zones = [...running].sort().join(', ');
    for (const m of members)
      ctx.errors.set(m.key, `gang ${name} asks for one zone but its running members are in ${zones}`);
    return { placed: 0, rounds: 0, committed: false };
  }
  const zones = running?.size ? [...running] : ctx.zones();
  // every zone starts from the members' relaxation state as it is now, so the order of trials changes nothing
  const restores = members.map((m) => m.save());
  const attempt = (zone: string) => {
    const pin = new Requirements([Requirement.in(ZONE, zone)]);
    for (const m of members) {
      ctx.errors.delete(m.key);
      m.pin(pin);
      ctx.topology.update(m);
    }
    return placeOnce(ctx, name, minMember, members);
  };
  const reset = () => {
    for (const restore of restores) restore();
    for (const m of members) m.pin(undefined);
    for (const m of members) ctx.topology.update(m);
  };
  let rounds = 0;
  let best: { zone: string; cost: number } | undefined;
  const why: string[] = [];
  for (const zone of zones) {
    const mark = ctx.journal.begin();
    const opened = ctx.claimsOpened();
    const out = attempt(zone);
    rounds += out.rounds;
    if (out.committed) {
      // what the zone costs: the claims the gang opened there (existing capacity is free, as in Karpenter)
      const cost = ctx.costSince(opened);
      if (!best || cost < best.cost) best = { zone, cost };
    } else why.push(`${zone}: ${ctx.errors.get(members[0]?.key ?? '') ?? 'does not fit'}`);
    ctx.journal.rollback(mark);
    reset();
  }
  if (best) {
    const out = attempt(best.zone);
    return { ...out, rounds: rounds + out.rounds };
  }
  const detail = why.length ? ` (${why.join('; ')})` : ' (no zone offers capacity)';
  for (const m of members)
    ctx.errors.set(m.key, `gang ${name} asks for one zone and no zone holds it all or nothing${detail}`);
  return { placed: 0, rounds, committed: false };
}

/** Every zone the NodePools offer or the nodes are in, sorted: the zones a one-zone gang may take. */
export function offeredZones(
  templates: readonly NodeClaimTemplate[],
  existing: readonly ExistingNodeInput[],
): string[] {
  const zones = new Set<string>();
  for (const t of templates) {
    const r = t.requirements.peek(ZONE);
    if (r && !r.complement) for (const z of r.values) zones.add(z);
  }
  for (const n of existing) {
    const z = n.labels[ZONE];
    if (z !== undefined) zones.add(z);
  }
  return [...zones].sort();
}
