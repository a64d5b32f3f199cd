// What every CLI command receives: parsed args, the validated objects, the catalog's instance types and the clock.
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import type { ClusterSnapshot } from '../../shared/state/snapshot.ts';
import type { Args } from './args.ts';
import { catalogWarnings } from './catalog-warnings.ts';
import { readCatalog, readObjects } from './read-input.ts';

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
  warn(line: string): void;
}

export async function loadContext(args: Args, io: Io): Promise<CommandContext> {
  const warn = (line: string): void => void io.stderr.write(`warning: ${line}\n`);
  const recognized = await readObjects(args.files, io.stdin);
  const catalog: InstanceTypeCatalog = args.catalog
    ? await readCatalog(args.catalog, io.stdin)
    : (await import('../../shared/catalog/builtin.ts')).builtinCatalog();
  // the simulator is loaded once the input has been read and validated: a refused input never pays for it
  const { buildInstanceTypes } = await import('../../shared/scheduling/instance-type.ts');
  const { buildSnapshot } = await import('../../shared/state/snapshot.ts');
  const snapshot = buildSnapshot(recognized.objects, buildInstanceTypes(catalog.instanceTypes));
  const fromCatalog = args.catalog ? catalogWarnings(catalog, args.catalog) : [];
  for (const w of [...recognized.warnings, ...fromCatalog, ...snapshot.warnings]) warn(w);
  return { args, snapshot, now: args.now ?? io.now(), warn };
}
