// The census fan-out's snapshot object (docs/mechanisms/census.md#fan-out): the cluster objects, the priced
// instance types, the clock reading, the pass options and the nodes open commands claim, written once per sweep
// as JSON and rebuilt by each worker into the very snapshot the coordinator judged. Checked by zod when read.
import { z } from 'zod';
import type { PassOptions } from '../disruption/types.ts';
import { CAPACITY_TYPES, CLOUDS } from '../model/labels.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot, type ClusterSnapshot } from '../state/snapshot.ts';

/** How the running loop builds its snapshot (live-state.ts): the worker builds it the same way. */
export const LIVE_SNAPSHOT_OPTIONS = { poolReadiness: true } as const;

export interface CensusInput {
  readonly snapshot: ClusterSnapshot;
  readonly now: Date;
  readonly options: PassOptions;
  readonly claimedByCommands: ReadonlySet<string>;
}

const finite = (n: number): number | string => (Number.isFinite(n) ? n : String(n));

function encodeType(t: InstanceType) {
  return {
    name: t.name,
    cloud: t.cloud,
    labels: t.labels,
    capacity: t.capacity,
    allocatable: t.allocatable,
    offerings: t.offerings,
    requirements: [...t.requirements.values()].map((r) => ({
      key: r.key,
      complement: r.complement,
      values: [...r.values],
      ...(r.greaterThan !== undefined ? { greaterThan: r.greaterThan } : {}),
      ...(r.lessThan !== undefined ? { lessThan: r.lessThan } : {}),
      ...(r.minValues !== undefined ? { minValues: r.minValues } : {}),
    })),
  };
}

/** The object's text: JSON has no Infinity, so an unbounded option travels as the string "Infinity". */
export function encodeCensusInput(i: CensusInput): string {
  const options = Object.fromEntries(
    Object.entries(i.options).map(([k, v]) => [k, typeof v === 'number' ? finite(v) : v]),
  );
  return JSON.stringify({
    version: 1,
    now: i.now.toISOString(),
    options,
    claimedByCommands: [...i.claimedByCommands],
    instanceTypes: i.snapshot.instanceTypes.map(encodeType),
    objects: i.snapshot.objects,
  });
}

const numbers = z.record(z.string(), z.number());
const typeSchema = z.object({
  name: z.string(),
  cloud: z.enum(CLOUDS),
  labels: z.record(z.string(), z.string()),
  capacity: numbers,
  allocatable: numbers,
  offerings: z.array(
    z.object({
      zone: z.string(),
      capacityType: z.enum(CAPACITY_TYPES),
      price: z.number(),
      available: z.boolean(),
    }),
  ),
  requirements: z.array(
    z.object({
      key: z.string(),
      complement: z.boolean(),
      values: z.array(z.string()),
      greaterThan: z.number().optional(),
      lessThan: z.number().optional(),
      minValues: z.number().optional(),
    }),
  ),
});
const OBJECT_KINDS = [
  'nodes',
  'pods',
  'pdbs',
  'daemonSets',
  'namespaces',
  'pvcs',
  'pvs',
  'storageClasses',
  'csiNodes',
  'nodePools',
  'nodeClaims',
  'nodeClasses',
  'podGroups',
  'workloads',
  'workloadPodGroups',
  'provisioningRequests',
  'podTemplates',
] as const satisfies readonly (keyof ClusterObjects)[];
const inputSchema = z.object({
  version: z.literal(1),
  now: z.iso.datetime(),
  options: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
  claimedByCommands: z.array(z.string()),
  instanceTypes: z.array(typeSchema),
  // Written by the coordinator from objects the Kubernetes adapter already validated: checked for shape here.
  objects: z.object(
    Object.fromEntries(OBJECT_KINDS.map((k) => [k, z.array(z.record(z.string(), z.unknown()))])),
  ),
});

/** A snapshot object that is not what the coordinator writes: names the object and the first bad field. */
export class CensusSnapshotError extends Error {
  override readonly name = 'CensusSnapshotError';
}

export function decodeCensusInput(text: string, where: string): CensusInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CensusSnapshotError(`${where}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = inputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CensusSnapshotError(`${where}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const p = parsed.data;
  const options = Object.fromEntries(
    Object.entries(p.options).map(([k, v]) => [k, v === 'Infinity' ? Number.POSITIVE_INFINITY : v]),
  ) as unknown as PassOptions;
  const types: InstanceType[] = p.instanceTypes.map((t) => ({
    ...t,
    requirements: new Requirements(
      t.requirements.map(
        (r) =>
          new Requirement(r.key, r.complement, new Set(r.values), r.greaterThan, r.lessThan, r.minValues),
      ),
    ),
  }));
  const objects = p.objects as unknown as ClusterObjects;
  return {
    snapshot: buildSnapshot(objects, types, LIVE_SNAPSHOT_OPTIONS),
    now: new Date(p.now),
    options,
    claimedByCommands: new Set(p.claimedByCommands),
  };
}
