// The `kraftsman fleet` JSON summary (docs/contract.md, "kraftsman fleet"): a stable shape, kept exact.
import { z } from 'zod';

const perCloud = z.object({ aws: z.number().int(), gcp: z.number().int() });

export const fleetCommandSchema = z.object({
  id: z.string(),
  method: z.string(),
  decision: z.string(),
  candidates: z.array(z.string()),
  replacements: z.array(z.string()),
  savingsPerHour: z.number(),
  outcome: z.enum(['completed', 'rolled-back', 'failed']),
  crossCloud: z.boolean(),
});
export type FleetCommand = z.infer<typeof fleetCommandSchema>;

export const fleetSummarySchema = z.object({
  scenario: z.string(),
  seed: z.string(),
  upstream: z.boolean(),
  simulatedMinutes: z.number(),
  wallSeconds: z.number(),
  cost: z.object({ startPerHour: z.number(), endPerHour: z.number(), lowerBoundPerHour: z.number() }),
  nodes: z.object({ start: perCloud, end: perCloud }),
  pods: z.object({
    pendingMax: z.number().int(),
    pendingEnd: z.number().int(),
    unprovisionable: z.number().int(),
    lost: z.number().int(),
  }),
  commands: z.array(fleetCommandSchema),
  launches: z.object({
    aws: z.number().int(),
    gcp: z.number().int(),
    failed: z.number().int(),
    gangsLaunched: z.number().int(),
    gangsRefused: z.number().int(),
  }),
  interruptions: z.array(
    z.object({ node: z.string(), cloud: z.enum(['aws', 'gcp']), cause: z.string(), replaced: z.boolean() }),
  ),
  invariants: z.object({
    strandedTaints: z.number().int(),
    orphanInstances: z.number().int(),
    lostPods: z.number().int(),
    budgetOverspends: z.number().int(),
  }),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;

/** What broke, one line each; `kraftsman fleet` exits 1 unless this is empty. */
export function brokenInvariants(run: {
  readonly summary: FleetSummary;
  readonly details: {
    readonly doubleBooked: readonly string[];
    readonly nodesWithoutInstance: readonly string[];
    readonly orphans: readonly string[];
    readonly stranded: readonly string[];
    readonly lostOwners: readonly string[];
  };
}): string[] {
  const { invariants: i } = run.summary;
  const d = run.details;
  const names = (xs: readonly string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? ', ...' : '');
  return [
    ...(i.orphanInstances ? [`${i.orphanInstances} instance(s) with no NodeClaim: ${names(d.orphans)}`] : []),
    ...(i.strandedTaints ? [`${i.strandedTaints} node(s) left tainted disrupted: ${names(d.stranded)}`] : []),
    ...(i.lostPods ? [`${i.lostPods} pod(s) lost, of ${names(d.lostOwners)}`] : []),
    ...(i.budgetOverspends ? [`${i.budgetOverspends} NodePool-minute(s) over the disruption budget`] : []),
    ...(d.nodesWithoutInstance.length
      ? [`${d.nodesWithoutInstance.length} Node(s) without a live instance: ${names(d.nodesWithoutInstance)}`]
      : []),
    ...(d.doubleBooked.length
      ? [`${d.doubleBooked.length} node(s) double-booked: ${names(d.doubleBooked)}`]
      : []),
  ];
}
