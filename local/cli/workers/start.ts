// The discovery workers --workers asks for (none for --workers 1); their threads start when the walk or the census
// begins, so a pass that ends at emptiness, drift or multi-node starts none (docs/mechanisms/parallel-discovery.md).
import type { PassOptions } from '../../../shared/disruption/types.ts';
import type { CommandContext } from '../command-context.ts';
import {
  censusEntrySchema,
  walkVerdictSchema,
  WorkerSpeculation,
  type WorkerInit,
} from '../../../shared/adapters/workers/index.ts';

function start<V>(
  ctx: CommandContext,
  command: 'plan' | 'census',
  options: PassOptions,
  claimedByCommands: ReadonlySet<string>,
  parse: (v: unknown) => V,
): WorkerSpeculation<V> | undefined {
  if (ctx.args.workers <= 1) return undefined;
  const init: WorkerInit = {
    command,
    ...ctx.input,
    // A static catalog (command-context.ts): a type outside it is not drifted for it.
    snapshotOptions: { unknownTypesDrift: false },
    now: ctx.now.toISOString(),
    options,
    claimedByCommands: [...claimedByCommands],
  };
  return new WorkerSpeculation(ctx.args.workers, init, parse);
}

export const walkWorkers = (ctx: CommandContext, options: PassOptions, claimed: ReadonlySet<string>) =>
  start(ctx, 'plan', options, claimed, (v) => walkVerdictSchema.parse(v));

export const censusWorkers = (ctx: CommandContext, options: PassOptions, claimed: ReadonlySet<string>) =>
  start(ctx, 'census', options, claimed, (v) => censusEntrySchema.parse(v));
