// What every CLI command receives: parsed args, the validated objects, the catalog's instance types and the clock.
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../shared/model/catalog.ts';
import type { ClusterObjects } from '../../shared/state/objects.ts';
import type { ClusterSnapshot } from '../../shared/state/snapshot.ts';
import type { Args } from './args.ts';
import { catalogWarnings } from './catalog-warnings.ts';
import { catalogInRegions } from '../../shared/catalog/regions.ts';
import { readCatalog, readObjects } from './read-input.ts';
import { snapshotRegions } from './regions.ts';

export interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly now: () => Date;
}

export interface CommandContext {
  readonly args: Args;
  readonly snapshot: ClusterSnapshot;
  readonly now: Date;
  /** The validated input as plain data, from which discovery workers rebuild the snapshot (workers/). */
  readonly input: { readonly objects: ClusterObjects; readonly instanceTypes: readonly InstanceTypeSpec[] };
  warn(line: string): void;
}

export async function loadContext(args: Args, io: Io): Promise<CommandContext> {
  const warn = (line: string): void => void io.stderr.write(`warning: ${line}\n`);
  const recognized = await readObjects(args.files, io.stdin, args.recursive);
  const base: InstanceTypeCatalog = args.catalog
    ? await readCatalog(args.catalog, io.stdin)
    : (await import('../../shared/catalog/builtin.ts')).builtinCatalog();
  const extra = await Promise.all(args.extraTypes.map((f) => readCatalog(f, io.stdin)));
  const regions = args.regions.length > 0 ? new Set(args.regions) : snapshotRegions(recognized.objects);
  const catalog = catalogInRegions(withExtraTypes(base, extra), regions);
  // the simulator is loaded once the input has been read and validated: a refused input never pays for it
  const { buildInstanceTypes } = await import('../../shared/scheduling/instance-type.ts');
  const { buildSnapshot } = await import('../../shared/state/snapshot.ts');
  // A static catalog is not the cloud's answer: a type outside it has an unknown price, and is not drifted for it.
  const snapshot = buildSnapshot(recognized.objects, buildInstanceTypes(catalog.instanceTypes), {
    unknownTypesDrift: false,
  });
  const fromCatalog = args.catalog ? catalogWarnings(catalog, args.catalog) : [];
  for (const w of [...recognized.warnings, ...fromCatalog, ...snapshot.warnings]) warn(w);
  const input = { objects: recognized.objects, instanceTypes: catalog.instanceTypes };
  return { args, snapshot, now: args.now ?? io.now(), input, warn };
}

/** --extra-types: each file's types added to the catalog, a type of the same name replaced (the last file wins). */
function withExtraTypes(
  base: InstanceTypeCatalog,
  extra: readonly InstanceTypeCatalog[],
): InstanceTypeCatalog {
  if (extra.length === 0) return base;
  const byName = new Map(base.instanceTypes.map((t) => [t.name, t] as const));
  for (const c of extra) for (const t of c.instanceTypes) byName.set(t.name, t);
  return { ...base, instanceTypes: [...byName.values()] };
}
