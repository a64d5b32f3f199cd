// Karpenter's computeConsolidation (pkg/controllers/disruption/consolidation.go), shared by multi- and
// single-node consolidation: simulate the candidates away; every moving pod must land; no new claim means
// delete; more than one means no-op; exactly one must be strictly cheaper at its worst launch price, pinned
// to spot when it could launch as either, and spot-to-spot needs the feature and enough cheaper types.
import { CAPACITY_TYPE } from '../model/labels.ts';
import { offeringCompatible, orderByPrice } from '../scheduling/instance-type.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { Deadline } from '../scheduling/scheduler.ts';
import { Requirement } from '../scheduling/requirement.ts';
import type { PassContext } from './pass-context.ts';
import { capacityTypes, filterByPrice, narrow, satisfiesMinValues, toReplacement } from './replacement.ts';
import { deltaSimulation } from './delta-simulation.ts';
import { destinationGuard } from './destination-guard.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import type { Candidate, Command, MethodName, SkipReason } from './types.ts';

export type Outcome =
  | { readonly kind: 'command'; readonly command: Command; readonly claim: NewClaim | undefined }
  | { readonly kind: 'no-op'; readonly reason: SkipReason; readonly detail: string };

const noop = (reason: SkipReason, detail: string): Outcome => ({ kind: 'no-op', reason, detail });

export const candidatePrice = (cs: readonly Candidate[]): number => cs.reduce((s, c) => s + c.price, 0);

export function computeConsolidation(
  ctx: PassContext,
  method: MethodName,
  candidates: readonly Candidate[],
  held: readonly Candidate[] = [],
  deadline?: Deadline,
): Outcome {
  // the delta answers where it is exact; everywhere else the full simulation does (validation always does)
  const sim =
    deltaSimulation(ctx, candidates, held, deadline) ??
    simulateCandidates(ctx, candidates, held, deadline, destinationGuard(ctx));
  if (sim.timedOut) return noop('timed-out', 'the simulation ran out of its budget');
  const [firstUnscheduled] = sim.unscheduled;
  if (firstUnscheduled) return noop('unschedulable-pods', `${firstUnscheduled[0]}: ${firstUnscheduled[1]}`);
  const command = (claim: NewClaim | undefined): Outcome => ({
    kind: 'command',
    command: {
      method,
      reason: 'Underutilized',
      candidates,
      replacements: claim ? [toReplacement(claim)] : [],
    },
    claim,
  });
  if (sim.replacements.length === 0) return command(undefined);
  if (sim.replacements.length !== 1)
    return noop(
      'multiple-replacements-required',
      `can't remove without creating ${sim.replacements.length} nodes`,
    );

  const claim = sim.replacements[0] as NewClaim;
  const price = candidatePrice(candidates);
  narrow(claim, orderByPrice(claim.instanceTypes, claim.requirements));
  const allSpot = candidates.every((c) => c.capacityType === 'spot');
  if (allSpot && capacityTypes(claim).spot) return spotToSpot(ctx, claim, candidates.length, price, command);

  const kept = filterByPrice(claim.instanceTypes, claim.requirements, price);
  if (!kept || kept.length === 0)
    return noop('no-cheaper-replacement', `no instance type launches below ${price}/h`);
  // Types were kept assuming spot launches; if spot is short the launch must fail, not fall back to pricier
  // on-demand (Karpenter adds capacity-type In [spot] for an OD -> [OD, spot] replacement).
  const ct = capacityTypes(claim);
  const reqs =
    ct.spot && ct.onDemand
      ? claim.requirements.copy().add(Requirement.in(CAPACITY_TYPE, 'spot'))
      : claim.requirements;
  narrow(claim, kept, reqs);
  return command(claim);
}

function spotToSpot(
  ctx: PassContext,
  claim: NewClaim,
  count: number,
  price: number,
  command: (claim: NewClaim) => Outcome,
): Outcome {
  if (!ctx.options.spotToSpot)
    return noop(
      'spot-to-spot-disabled',
      "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node",
    );
  const reqs = claim.requirements.copy().add(Requirement.in(CAPACITY_TYPE, 'spot'));
  const compatible = claim.instanceTypes.filter((it) =>
    it.offerings.some((o) => o.available && offeringCompatible(o, reqs)),
  );
  const kept = filterByPrice(compatible, reqs, price);
  if (!kept || kept.length === 0)
    return noop('no-cheaper-replacement', `no spot instance type launches below ${price}/h`);
  if (count > 1) {
    narrow(claim, kept, reqs);
    return command(claim);
  }
  // Single node: at least N cheaper types, and launch only the N cheapest, so the launched type is always
  // among them and the node is not immediately consolidated again.
  const min = ctx.options.spotToSpotMinTypes;
  if (kept.length < min)
    return noop(
      'spot-to-spot-insufficient-types',
      `spot-to-spot needs ${min} cheaper instance types, got ${kept.length}`,
    );
  const ordered = orderByPrice(kept, reqs);
  let n = min;
  while (n < ordered.length && !satisfiesMinValues(ordered.slice(0, n), reqs)) n++;
  narrow(claim, ordered.slice(0, n), reqs);
  return command(claim);
}
