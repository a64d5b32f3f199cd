// `kraftsman census`: placeholder until the disruption engine lands — reports no commands.
import type { CommandContext } from './context.ts';

export function run(_ctx: CommandContext): { json: unknown; table: string } {
  return { json: { nodePools: {}, candidates: [] }, table: 'no commands\n' };
}
