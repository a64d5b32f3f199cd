// The fleet report: one self-contained HTML file (chart.js inlined, no network) with the cost, nodes,
// pending and coverage charts and the command, skip-reason and census tables; runs shown side by side.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FleetRun } from './model.ts';
import { chartScript } from './charts.ts';
import { esc, tablesOf } from './tables.ts';

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
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#f3f3f3}h2{margin:8px 0}`;

function column(r: LabelledRun, i: number): string {
  const s = r.run.summary;
  // Walk coverage exists only where a disruption function walked: without one the report says so, not 0 %.
  const walked = r.run.samples.some((x) => x.coverage !== null);
  const charts =
    ['cost', 'nodes', 'pending', ...(walked ? ['coverage'] : [])]
      .map(
        (c) => `<div class="chart"><canvas id="${c}-${i}" data-chart="${c}" data-run="${i}"></canvas></div>`,
      )
      .join('') +
    (walked ? '' : '<p class="note">Walk coverage: no disruption function ran in this run.</p>');
  return `<section><h2>${esc(r.label)}</h2><p>scenario ${esc(s.scenario)}, seed ${esc(s.seed)},
${s.simulatedMinutes} simulated minutes: $${s.cost.startPerHour.toFixed(2)}/h → $${s.cost.endPerHour.toFixed(2)}/h
(lower bound $${s.cost.lowerBoundPerHour.toFixed(2)}/h)</p>${charts}${tablesOf(r.run)}</section>`;
}

export function renderReport(runs: readonly LabelledRun[]): string {
  const data = scriptSafe(JSON.stringify(runs.map((r) => ({ label: r.label, samples: r.run.samples }))));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kraftsman fleet report</title>
<style>${STYLE}</style><script>${chartJs().replace(/<\/script/gi, '<\\/script')}</script></head>
<body><h1>kraftsman fleet report</h1><div class="runs" style="--cols:${runs.length}">${runs.map(column).join('')}</div>
<script id="fleet-data" type="application/json">${data}</script><script>${chartScript}</script></body></html>\n`;
}
