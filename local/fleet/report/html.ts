// The fleet report: one self-contained HTML file (chart.js inlined, no network) with the cost, nodes,
// pending and coverage charts and the command, skip-reason and census tables; runs shown side by side.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { summaryTable } from '../format.ts';
import type { FleetRun } from './model.ts';
import { chartScript } from './charts.ts';
import { esc, tablesOf } from './tables.ts';
import { verdictHtml } from './verdict.ts';

export interface LabelledRun {
  readonly label: string;
  readonly run: FleetRun;
}

// The UMD build is not in chart.js's "exports": resolve the package's main entry and read its sibling.
const chartJs = (): string =>
  readFileSync(join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'), 'utf8');

/** JSON safe inside a <script>: no `</script>` or `<!--` can close it early. */
const scriptSafe = (s: string): string => s.replace(/</g, '\\u003c');

const STYLE = `body{font:14px system-ui,sans-serif;margin:16px;color:#222}
.runs{display:grid;grid-template-columns:repeat(var(--cols),minmax(0,1fr));gap:24px}
.chart{height:240px;margin-bottom:16px}table{border-collapse:collapse;font-size:12px;width:100%;margin-bottom:16px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#f3f3f3}h2{margin:8px 0}
.verdict{padding:6px 10px;border-radius:4px}.good{background:#e6f4ea}.bad{background:#fce8e6}
.caption{font-size:12px;color:#555;margin:-12px 0 16px}`;

/** One line under each chart: what it shows. */
const CAPTIONS: Readonly<Record<string, string>> = {
  cost: 'What the fleet costs per hour each simulated minute, against the bin-packing lower bound (dashed); each triangle marks a finished disruption command.',
  nodes: 'Nodes per cloud (solid) and per NodePool (dashed).',
  pending: 'Pods waiting for a node; the axis starts at zero.',
  coverage: 'The share of current consolidation candidates the walk has reached in its coverage cycle.',
};

function column(r: LabelledRun, i: number): string {
  const s = r.run.summary;
  // Walk coverage exists only where a disruption function walked: without one the report says so, not 0 %.
  const walked = r.run.samples.some((x) => x.coverage !== null);
  const charts =
    ['cost', 'nodes', 'pending', ...(walked ? ['coverage'] : [])]
      .map(
        (c) =>
          `<div class="chart"><canvas id="${c}-${i}" data-chart="${c}" data-run="${i}"></canvas></div><p class="caption">${CAPTIONS[c] ?? ''}</p>`,
      )
      .join('') +
    (walked ? '' : '<p class="note">Walk coverage: no disruption function ran in this run.</p>');
  return `<section><h2>${esc(r.label)}</h2><p>scenario ${esc(s.scenario)}, seed ${esc(s.seed)},
${s.simulatedMinutes} simulated minutes: $${s.cost.startPerHour.toFixed(2)}/h → $${s.cost.endPerHour.toFixed(2)}/h
(lower bound $${s.cost.lowerBoundPerHour.toFixed(2)}/h)</p>${verdictHtml(r.run)}${charts}${tablesOf(r.run)}</section>`;
}

/** With several runs (--compare), one summary table with a column per run, as the command line prints it. */
function compared(runs: readonly LabelledRun[]): string {
  if (runs.length < 2) return '';
  return `<h2>Side by side</h2><pre class="compare">${esc(summaryTable(runs.map((r) => r.run)))}</pre>`;
}

export function renderReport(runs: readonly LabelledRun[]): string {
  const data = scriptSafe(
    JSON.stringify(
      runs.map((r) => ({
        label: r.label,
        samples: r.run.samples,
        markers: r.run.details.commandMarkers ?? [],
      })),
    ),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kraftsman fleet report</title>
<style>${STYLE}</style><script>${chartJs().replace(/<\/script/gi, '<\\/script')}</script></head>
<body><h1>kraftsman fleet report</h1>${compared(runs)}<div class="runs" style="--cols:${runs.length}">${runs.map(column).join('')}</div>
<script id="fleet-data" type="application/json">${data}</script><script>${chartScript}</script></body></html>\n`;
}
