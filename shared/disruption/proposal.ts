// A proposal as it travels from consolidate to admit (docs/mechanisms/batched-admission.md): the method,
// the candidates by name and the replacements, validated and bounded at both ends (an async Lambda event is
// at most 256 KB), so admit re-derives everything else from live state.
import { z } from 'zod';
import { CAPACITY_TYPES } from '../model/labels.ts';
import { formatZodIssues } from '../model/zod-issues.ts';
import { METHOD_NAMES, type Command, type Replacement } from './types.ts';
import { MAX_INSTANCE_TYPES } from './replacement.ts';

/** The walk holds at most this many proposals per pass, so one admission event stays small. */
export const MAX_PROPOSALS = 20;
/** Serialized proposals above this are refused before sending (Lambda's async payload limit is 256 KB). */
export const MAX_PROPOSALS_BYTES = 200_000;

const name = z.string().min(1).max(253);
export const replacementSchema = z.object({
  nodePool: name,
  cloud: z.enum(['aws', 'gcp']),
  instanceTypes: z.array(name).min(1).max(MAX_INSTANCE_TYPES),
  capacityType: z.enum([...CAPACITY_TYPES, 'unknown']),
  zone: z.string().min(1).max(64),
  price: z.number().nonnegative(),
  requirements: z
    .array(
      z.object({
        key: name,
        operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
        values: z.array(z.string().max(253)).max(500),
      }),
    )
    .max(64),
});

export const proposalSchema = z.object({
  method: z.enum(METHOD_NAMES),
  reason: z.enum(['Empty', 'Drifted', 'Underutilized']),
  candidates: z.array(name).min(1).max(100),
  replacements: z.array(replacementSchema).max(100),
  /** $/h the pass expected to save (candidates' price − replacements'), for the realized-savings metric. */
  savingsPerHour: z.number(),
});
export type Proposal = z.infer<typeof proposalSchema>;

export const proposalsSchema = z.array(proposalSchema).min(1).max(MAX_PROPOSALS);

export class ProposalError extends Error {
  override readonly name = 'ProposalError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function toProposal(cmd: Command): Proposal {
  const replacements: Replacement[] = [...cmd.replacements];
  const price =
    cmd.candidates.reduce((s, c) => s + c.price, 0) - replacements.reduce((s, r) => s + r.price, 0);
  return {
    method: cmd.method,
    reason: cmd.reason === 'Empty' || cmd.reason === 'Drifted' ? cmd.reason : 'Underutilized',
    candidates: cmd.candidates.map((c) => c.name),
    replacements: replacements.map((r) => ({
      ...r,
      instanceTypes: [...r.instanceTypes],
      requirements: r.requirements.map((q) => ({ ...q, values: [...q.values] })),
    })),
    savingsPerHour: Number.isFinite(price) ? price : 0,
  };
}

/** Parses proposals at a boundary (either end of the invoke): ProposalError naming every bad field. */
export function parseProposals(value: unknown, where: string): Proposal[] {
  const r = proposalsSchema.safeParse(value);
  if (!r.success) throw new ProposalError(formatZodIssues(r.error, where), { cause: r.error });
  const bytes = JSON.stringify(r.data).length;
  if (bytes > MAX_PROPOSALS_BYTES)
    throw new ProposalError(
      `${where}: ${bytes} bytes of proposals exceed the ${MAX_PROPOSALS_BYTES}-byte bound`,
    );
  return r.data;
}
