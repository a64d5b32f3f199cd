// Stored item shapes, parsed with zod on the way in (the table is a boundary): times are epoch milliseconds.
import { z } from 'zod';
import { CAPACITY_TYPES, CLOUDS } from '../../model/labels.ts';
import { COMMAND_STATUSES } from '../../ports/state-store/command-states.ts';
import { CorruptItemError } from '../../ports/state-store/errors.ts';
import { DECISIONS, METHOD_NAMES } from '../../disruption/types.ts';
import {
  LAUNCH_STATUSES,
  LEASE_NAMES,
  candidateIdentitySchema,
  replacementIdentitySchema,
} from '../../ports/state-store/records.ts';
import type {
  CensusResult,
  CommandRecord,
  LaunchRecord,
  LeaseView,
} from '../../ports/state-store/records.ts';
import { formatZodIssues } from '../../model/zod-issues.ts';

const ms = z.number().int();
const date = ms.transform((n) => new Date(n));

export const leaseItem = z.object({
  cluster: z.string(),
  name: z.enum(LEASE_NAMES),
  owner: z.string(),
  token: z.number().int(),
  acquiredAt: date,
  expiresAt: date,
  released: z.boolean(),
  lastRunId: z.string().optional(),
  seq: z.number().int().optional(),
  lastCommandId: z.string().optional(),
});

export const commandItem = z.object({
  cluster: z.string(),
  id: z.string(),
  seq: z.number().int(),
  method: z.enum(METHOD_NAMES),
  decision: z.enum(DECISIONS),
  candidates: z.array(z.string()),
  replacements: z.array(z.string()),
  savingsPerHour: z.number().optional(),
  status: z.enum(COMMAND_STATUSES),
  fencingToken: z.number().int(),
  admittedBy: z.string(),
  createdAt: date,
  updatedAt: date,
  confirmedAt: date.optional(),
  lastTransitionId: z.string().optional(),
  // Absent on records written before identities were recorded (read as such: docs/functions/orchestrate.md).
  identities: z.array(candidateIdentitySchema).optional(),
  replacementIdentities: z.array(replacementIdentitySchema).optional(),
  failures: z.number().int().optional(),
  lastError: z.string().optional(),
  retryAt: date.optional(),
});

export const launchItem = z.object({
  cluster: z.string(),
  claimName: z.string(),
  cloud: z.enum(CLOUDS),
  nodePool: z.string(),
  commandId: z.string().optional(),
  status: z.enum(LAUNCH_STATUSES),
  fence: z.enum(LEASE_NAMES),
  fencingToken: z.number().int(),
  providerId: z.string().optional(),
  error: z.string().optional(),
  createdAt: date,
  updatedAt: date,
  createId: z.string().optional(),
});

export const censusItem = z.object({
  nodePool: z.string(),
  candidates: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  at: date,
});

export const epochItem = z.object({ epoch: z.number().int(), lastClearId: z.string().optional() });
export const consolidatedItem = z.object({
  fingerprint: z.string(),
  since: date,
  methods: z.array(z.enum(METHOD_NAMES)),
});
export const cycleItem = z.object({
  nodePool: z.string(),
  cycle: z.number().int(),
  lastStartId: z.string().optional(),
});
export const unseenItem = z.object({
  version: z.number().int(),
  pools: z.array(z.string()),
  lastWriteId: z.string().optional(),
});
export const memberItem = z.object({ nodePool: z.string(), candidate: z.string(), cycle: z.number().int() });
export const negativeItem = z.object({
  candidate: z.string(),
  fingerprint: z.string(),
  expiresAt: date,
  epoch: z.number().int(),
});
export const verdictItem = z.object({
  podKey: z.string(),
  podUid: z.string(),
  reason: z.string(),
  expiresAt: date,
});
export const nominationItem = z.object({
  podKey: z.string(),
  nodeName: z.string().optional(),
  claimName: z.string().optional(),
  expiresAt: date,
});
export const unavailableItem = z.object({
  cloud: z.enum(CLOUDS),
  instanceType: z.string(),
  zone: z.string(),
  capacityType: z.enum(CAPACITY_TYPES),
  reason: z.string(),
  expiresAt: date,
});

/** Parses one stored item; a failure names the item's key, since it means a bug or a foreign writer. */
export function parseItem<S extends z.ZodType>(schema: S, item: Record<string, unknown>): z.output<S> {
  const r = schema.safeParse(item);
  if (r.success) return r.data;
  throw new CorruptItemError(
    `stored item ${String(item.pk)} / ${String(item.sk)} does not parse: ${formatZodIssues(r.error)}`,
    { cause: r.error },
  );
}

export const toLeaseView = (item: Record<string, unknown> | undefined): LeaseView | undefined => {
  if (!item || item.owner === undefined) return undefined;
  const l = parseItem(leaseItem, item);
  return {
    cluster: l.cluster,
    name: l.name,
    owner: l.owner,
    token: l.token,
    acquiredAt: l.acquiredAt,
    expiresAt: l.expiresAt,
    released: l.released,
    ...(l.lastRunId ? { lastRunId: l.lastRunId } : {}),
  };
};

export const toCommand = (item: Record<string, unknown>): CommandRecord => {
  const { lastTransitionId: _drop, ...c } = parseItem(commandItem, item);
  return c;
};

export const toLaunch = (item: Record<string, unknown>): LaunchRecord => {
  const { createId: _drop, ...l } = parseItem(launchItem, item);
  return l;
};

export const toCensus = (item: Record<string, unknown>): CensusResult => parseItem(censusItem, item);
