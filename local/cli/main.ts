// The kraftsman CLI entry: parse arguments, load the snapshot, run one command, print JSON or a table.
// Exit codes (docs/contract.md): 0 success, 2 bad input or usage (nothing on stdout), 1 internal error.
import { parseArgs, type Command } from './args.ts';
import { loadContext, type CommandContext, type Io } from './command-context.ts';
import { InputError } from './errors.ts';

type Runner = (ctx: CommandContext) => { json: unknown; table: string };

const COMMANDS: Record<Command, () => Promise<{ run: Runner }>> = {
  simulate: () => import('./simulate.ts'),
  plan: () => import('./plan.ts'),
  census: () => import('./census.ts'),
};

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    // `fleet` runs a whole local fleet, not one command over a snapshot: it has its own flags.
    if (argv[0] === 'fleet') return await (await import('./fleet.ts')).fleet(argv.slice(1), io);
    const args = parseArgs(argv);
    const ctx = await loadContext(args, io);
    const { run } = await COMMANDS[args.command]();
    const out = run(ctx);
    io.stdout.write(args.output === 'json' ? `${JSON.stringify(out.json, null, 2)}\n` : out.table);
    return 0;
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}
