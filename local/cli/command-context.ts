// What every CLI command receives: parsed args, the validated objects, the catalog's instance types and the clock.
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import { buildInstanceTypes } from '../../shared/scheduling/instance-type.ts';
import { buildSnapshot, type ClusterSnapshot } from '../../shared/state/snapshot.ts';
import type { Args } from './args.ts';
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
    : builtinCatalog();
  const snapshot = buildSnapshot(recognized.objects, buildInstanceTypes(catalog.instanceTypes));
  for (const w of [...recognized.warnings, ...snapshot.warnings]) warn(w);
  return { args, snapshot, now: args.now ?? io.now(), warn };
}
