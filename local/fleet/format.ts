// The fleet's text output: the progress line on stderr and the summary table on stdout.
import type { FleetSample } from './report/model.ts';
import type { FleetSummary } from './summary.ts';

export const progressLine = (s: FleetSample, at: Date): string =>
  `t+${String(s.minute).padStart(3)}m ${at.toISOString().slice(11, 16)} nodes aws ${s.nodesByCloud.aws ?? 0} ` +
  `gcp ${s.nodesByCloud.gcp ?? 0} | pending ${s.pending} | $${s.costPerHour.toFixed(2)}/h | commands ${s.commandsInFlight}`;

export function summaryTable(runs: readonly FleetSummary[]): string {
  const rows: [string, (s: FleetSummary) => string][] = [
    ['mode', (s) => (s.upstream ? 'upstream' : 'kraftsman')],
    ['scenario (seed)', (s) => `${s.scenario} (${s.seed})`],
    ['simulated minutes', (s) => String(s.simulatedMinutes)],
    ['wall seconds', (s) => s.wallSeconds.toFixed(1)],
    ['cost $/h start → end', (s) => `${s.cost.startPerHour.toFixed(2)} → ${s.cost.endPerHour.toFixed(2)}`],
    ['LP lower bound $/h', (s) => s.cost.lowerBoundPerHour.toFixed(2)],
    ['nodes aws start → end', (s) => `${s.nodes.start.aws} → ${s.nodes.end.aws}`],
    ['nodes gcp start → end', (s) => `${s.nodes.start.gcp} → ${s.nodes.end.gcp}`],
    ['pending max / end', (s) => `${s.pods.pendingMax} / ${s.pods.pendingEnd}`],
    ['commands', (s) => String(s.commands.length)],
    ['launches aws / gcp / failed', (s) => `${s.launches.aws} / ${s.launches.gcp} / ${s.launches.failed}`],
    ['invariants broken', (s) => String(Object.values(s.invariants).reduce((a, b) => a + b, 0))],
  ];
  const cells = rows.map(([k, f]) => [k, ...runs.map(f)]);
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
