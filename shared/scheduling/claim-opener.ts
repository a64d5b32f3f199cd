// Karpenter's addToNewNodeClaim: NodePool templates tried in weight order (kraftsman: the cheapest compatible
// offering among equal weights), each within its limits; shared by the scheduler and the delta simulation's follow
// (docs/mechanisms/delta-simulation.md, point 5), so a new claim is opened by one implementation only.
import type { Cloud } from '../model/labels.ts';
import type { ResourceList } from '../model/resources.ts';
import { cheapestOffering } from './instance-type.ts';
import type { Journal } from './journal.ts';
import { nodesLimitReason, typesLimitReason } from './limit-reasons.ts';
import { NewClaim } from './new-claim.ts';
import type { PodState } from './pod-state.ts';
import type { NodeClaimTemplate } from './template.ts';
import type { Topology } from './topology.ts';

/** What opening a claim reads from its run: the templates, the limits left, the hostname counter. */
export interface ClaimOpening {
  readonly templatesByWeight: readonly (readonly NodeClaimTemplate[])[];
  readonly cheapestPoolAmongEqualWeights: boolean;
  readonly allowUndefined: ReadonlySet<string>;
  readonly topology: Topology;
  readonly journal: Journal;
  readonly limits?: ReadonlyMap<string, ResourceList>;
  /** Remaining limits per limited NodePool, as they stand now. */
  remainingOf(pool: string): ResourceList | undefined;
  /** While a gang is placed again on one cloud: templates of other clouds are not tried. */
  gangCloud(): Cloud | undefined;
  /** The next placeholder hostname, and giving back the last one (a trial claim of the cheapest-pool rule). */
  nextHostname(): string;
  releaseHostname(): void;
}

/** Karpenter's OrderByWeight: weight descending, then name descending (byte order), grouped by equal weight. */
export function templatesByWeight(templates: readonly NodeClaimTemplate[]): NodeClaimTemplate[][] {
  const sorted = [...templates].sort(
    (a, b) => b.weight - a.weight || (a.nodePool < b.nodePool ? 1 : a.nodePool > b.nodePool ? -1 : 0),
  );
  const groups: NodeClaimTemplate[][] = [];
  for (const t of sorted) {
    const last = groups.at(-1);
    if (last && (last[0] as NodeClaimTemplate).weight === t.weight) last.push(t);
    else groups.push([t]);
  }
  return groups;
}

/** A claim opened for the pod, holding it (not yet committed to the run), or why no NodePool can launch one. */
export function openClaimFor(o: ClaimOpening, pod: PodState): NewClaim | string {
  const errors: string[] = [];
  for (const group of o.templatesByWeight) {
    let best: { template: NodeClaimTemplate; price: number } | undefined;
    for (const template of group) {
      const cloud = o.gangCloud();
      if (cloud && template.cloud !== cloud) continue;
      if (template.instanceTypes.length === 0) {
        errors.push(
          `NodePool ${template.nodePool} has no instance type with an available offering that meets its requirements`,
        );
        continue;
      }
      if (nodesExhausted(o, template)) {
        const why = nodesLimitReason(
          o.remainingOf(template.nodePool) ?? {},
          o.limits?.get(template.nodePool),
        );
        errors.push(`node limits have been exhausted for NodePool ${template.nodePool}: ${why}`);
        continue;
      }
      const types = withinLimits(o, template);
      if (types.length === 0) {
        const why = typesLimitReason(
          template.instanceTypes,
          o.remainingOf(template.nodePool) ?? {},
          o.limits?.get(template.nodePool),
        );
        errors.push(`all available instance types exceed limits for NodePool ${template.nodePool}: ${why}`);
        continue;
      }
      if (!o.cheapestPoolAmongEqualWeights || group.length === 1) {
        const claim = open(o, template, types);
        const err = claim.add(pod, o.topology, o.journal);
        if (err === undefined) return claim;
        errors.push(claimError(o, template, types, err));
        continue;
      }
      const mark = o.journal.begin();
      const claim = open(o, template, types);
      const err = claim.add(pod, o.topology, o.journal);
      const price = err === undefined ? claimPrice(claim) : Number.POSITIVE_INFINITY;
      o.journal.rollback(mark);
      o.releaseHostname();
      if (err !== undefined) errors.push(claimError(o, template, types, err));
      else if (!best || price < best.price) best = { template, price };
    }
    if (best) {
      const types = withinLimits(o, best.template);
      const claim = open(o, best.template, types);
      const err = claim.add(pod, o.topology, o.journal);
      if (err === undefined) return claim;
      errors.push(claimError(o, best.template, types, err));
    }
  }
  return errors.length ? errors.join('; ') : 'no NodePool can launch capacity for the pod';
}

function open(o: ClaimOpening, template: NodeClaimTemplate, types: NodeClaimTemplate['instanceTypes']) {
  // a new hostname needs no registration: topology counts an unknown hostname as an empty domain
  return new NewClaim(template, o.nextHostname(), types, o.allowUndefined);
}

/** Karpenter's addToNewNodeClaim: a pool with no `nodes` left opens no claim, whatever its types. */
function nodesExhausted(o: ClaimOpening, template: NodeClaimTemplate): boolean {
  const left = o.remainingOf(template.nodePool)?.nodes;
  return left !== undefined && left < 1000;
}

/** The template's types within the pool's remaining limits (the same array when nothing was cut: memos keep hitting). */
export function withinLimits(
  o: Pick<ClaimOpening, 'remainingOf'>,
  template: NodeClaimTemplate,
): NodeClaimTemplate['instanceTypes'] {
  const remaining = o.remainingOf(template.nodePool);
  if (!remaining) return template.instanceTypes;
  const within = template.instanceTypes.filter((it) => {
    for (const k in remaining) if ((it.capacity[k] ?? 0) > (remaining[k] as number)) return false;
    return true;
  });
  return within.length === template.instanceTypes.length ? template.instanceTypes : within;
}

/** A new claim's refusal; when the pool's limits cut its types, which limit, so the reason is not only "too small". */
function claimError(
  o: ClaimOpening,
  template: NodeClaimTemplate,
  types: NodeClaimTemplate['instanceTypes'],
  err: string,
): string {
  const all = template.instanceTypes;
  if (types === all) return `NodePool ${template.nodePool}: ${err}`;
  const remaining = o.remainingOf(template.nodePool) ?? {};
  const why = typesLimitReason(all, remaining, o.limits?.get(template.nodePool));
  return `NodePool ${template.nodePool}: ${err} within its limits: ${why} by ${all.length - types.length} of its ${all.length} types`;
}

export function claimPrice(claim: NewClaim): number {
  let best = Number.POSITIVE_INFINITY;
  for (const it of claim.instanceTypes) {
    const o = cheapestOffering(it, claim.requirements);
    if (o && o.price < best) best = o.price;
  }
  return best;
}
