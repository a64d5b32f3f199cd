// The kraftsman CLI entry: parse arguments, load the snapshot, run one command, print JSON or a table.
// Exit codes (docs/contract.md): 0 success, 2 bad input or usage (nothing on stdout), 1 internal error.
import { parseArgs, type Command } from './args.ts';
import type { CommandContext, Io } from './command-context.ts';
import { InputError } from './errors.ts';
import { helpOrVersion } from './help.ts';
import { terminalSafe } from './terminal-text.ts';

type Runner = (ctx: CommandContext) => { json: unknown; table: string };

const COMMANDS: Record<Command, () => Promise<{ run: Runner }>> = {
  simulate: () => import('./simulate.ts'),
  plan: () => import('./plan.ts'),
  census: () => import('./census.ts'),
};

export async function main(argv: readonly string[], io: Io): Promise<number> {
  // every line this process prints passes through terminalSafe: names from the input may hold control characters
  const stderr = { write: (text: string) => io.stderr.write(terminalSafe(text)) };
  const safeIo: Io = { ...io, stderr: stderr as NodeJS.WritableStream };
  try {
    const help = helpOrVersion(argv);
    if (help !== undefined) {
      io.stdout.write(help);
      return 0;
    }
    // `fleet` runs a whole local fleet, not one command over a snapshot: it has its own flags. It prints
    // only names and numbers it made itself, and its live status line needs the raw TTY stream.
    if (argv[0] === 'fleet') return await (await import('./fleet.ts')).fleet(argv.slice(1), io);
    // `userdata` renders one launch's user data from files; it has its own flags and prints text, not a report.
    if (argv[0] === 'userdata') return await (await import('./userdata.ts')).userdata(argv.slice(1), safeIo);
    // `catalog` reads a real account into an InstanceTypeCatalog; it takes no snapshot.
    if (argv[0] === 'catalog') return await (await import('./catalog.ts')).catalog(argv.slice(1), safeIo);
    const args = parseArgs(argv);
    // loaded on demand: --help, --version and usage errors need none of the core
    const { loadContext } = await import('./command-context.ts');
    const ctx = await loadContext(args, safeIo);
    const { run } = await COMMANDS[args.command]();
    const out = run(ctx);
    // JSON.stringify escapes C0 controls itself; terminalSafe adds DEL, C1 and bidi overrides (still valid JSON)
    io.stdout.write(
      terminalSafe(args.output === 'json' ? `${JSON.stringify(out.json, null, 2)}\n` : out.table),
    );
    return 0;
  } catch (e) {
    if (e instanceof InputError) {
      stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    stderr.write(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}
