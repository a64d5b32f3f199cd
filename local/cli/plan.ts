// `kraftsman plan`: placeholder until the disruption engine lands — reports no commands.
import type { CommandContext } from './context.ts';

export function run(_ctx: CommandContext): { json: unknown; table: string } {
  return { json: { commands: [], skipped: [], pass: { candidates: 0, evaluated: 0, timedOut: false } }, table: 'no commands\n' };
}
