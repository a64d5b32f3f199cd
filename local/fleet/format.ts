// The fleet's text output: the progress line on stderr and the summary table on stdout. Every figure is one
// the run counted; one it could not count says why instead of printing a zero.
import type { FleetRun, FleetSample } from './report/model.ts';
import { brokenInvariants } from './summary.ts';

export const progressLine = (s: FleetSample, at: Date): string =>
  `t+${String(s.minute).padStart(3)}m ${at.toISOString().slice(11, 16)} nodes aws ${s.nodesByCloud.aws ?? 0} ` +
  `gcp ${s.nodesByCloud.gcp ?? 0} | pending ${s.pending} | $${s.costPerHour.toFixed(2)}/h | commands ${s.commandsInFlight}`;

const DISRUPTION = ['consolidate', 'admit', 'orchestrate'];

function commandsCell(r: FleetRun): string {
  if (!DISRUPTION.some((f) => r.details.functionsRun.includes(f)))
    return 'n/a (no disruption function in this build)';
  const by = new Map<string, number>();
  for (const c of r.summary.commands)
    by.set(`${c.decision} ${c.outcome}`, (by.get(`${c.decision} ${c.outcome}`) ?? 0) + 1);
  const open = r.samples[r.samples.length - 1]?.commandsInFlight ?? 0;
  const detail = [...[...by].map(([k, n]) => `${n} ${k}`), ...(open ? [`${open} in flight at the end`] : [])];
  return `${r.summary.commands.length} finished${detail.length ? ` (${detail.join(', ')})` : ''}`;
}

function interruptionsCell(r: FleetRun): string {
  const i = r.summary.interruptions;
  return `${i.length} (${i.filter((x) => x.replaced).length})`;
}

function coverageCell(r: FleetRun): string {
  const c = r.samples[r.samples.length - 1]?.coverage;
  return c === null || c === undefined ? 'n/a (no coverage cycle reported)' : `${(c * 100).toFixed(1)}%`;
}

/** What the table's less obvious figures mean, printed under it. */
export const SUMMARY_LEGEND = `
(min): the lowest cost per hour the fleet reached during the run.
LP lower bound: what the pods running at the end would cost with their requests pooled, placement rules
  dropped and nodes bought in fractions (a linear-programming relaxation); no real packing costs less.
walk coverage: the share of current consolidation candidates the walk has simulated in its coverage cycle
  (docs/mechanisms/coverage-cycle.md); a cycle restarts once every candidate was reached.
`;

export function summaryTable(runs: readonly FleetRun[]): string {
  const rows: [string, (r: FleetRun) => string][] = [
    ['mode', (r) => (r.summary.upstream ? 'upstream' : 'kraftsman')],
    ['scenario (seed)', (r) => `${r.summary.scenario} (${r.summary.seed})`],
    ['simulated minutes', (r) => String(r.summary.simulatedMinutes)],
    ['wall seconds', (r) => r.summary.wallSeconds.toFixed(1)],
    ['functions', (r) => r.details.functionsRun.join(', ')],
    [
      'cost $/h start → end (min)',
      (r) =>
        `${r.summary.cost.startPerHour.toFixed(2)} → ${r.summary.cost.endPerHour.toFixed(2)} (${r.details.minCostPerHour.toFixed(2)})`,
    ],
    ['LP lower bound $/h at end', (r) => r.summary.cost.lowerBoundPerHour.toFixed(2)],
    ['nodes aws start → end', (r) => `${r.summary.nodes.start.aws} → ${r.summary.nodes.end.aws}`],
    ['nodes gcp start → end', (r) => `${r.summary.nodes.start.gcp} → ${r.summary.nodes.end.gcp}`],
    ['pending max / end', (r) => `${r.summary.pods.pendingMax} / ${r.summary.pods.pendingEnd}`],
    ['unprovisionable (last batch)', (r) => String(r.summary.pods.unprovisionable)],
    ['NodeClaims created', (r) => String(r.details.claimsCreated)],
    ['instances launched aws / gcp', (r) => `${r.summary.launches.aws} / ${r.summary.launches.gcp}`],
    ['instances terminated aws / gcp', (r) => `${r.details.terminated.aws} / ${r.details.terminated.gcp}`],
    ['launch invocations failed', (r) => String(r.summary.launches.failed)],
    ['commands', commandsCell],
    ['interruptions (replaced)', interruptionsCell],
    ['walk coverage at end', coverageCell],
    ['census (NodePools)', (r) => (r.census.length ? String(r.census.length) : 'n/a (census did not run)')],
    ['invariants broken', (r) => String(brokenInvariants(r).length)],
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
      .join('\n') +
    '\n' +
    SUMMARY_LEGEND
  );
}
