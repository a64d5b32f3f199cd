// The report in a real browser: Debian's Chromium driven by playwright-core opens the file offline and every
// chart has rendered with data — for two hand-made runs side by side (every chart and table kind, escaping),
// and for a real small fleet run through the handlers, whose screenshot the README shows (docs/img/report.png).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport, type LabelledRun } from '../../../local/fleet/report/html.ts';
import { runFleet } from '../../../local/fleet/run.ts';
import { decayScenario } from '../../../local/fleet/scenarios/index.ts';
import { sampleRun } from '../../support/fleet-run.ts';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Opens the report offline; returns the charts it drew and how many pixels each canvas inked. */
async function open(page: Page, file: string) {
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) requests.push(r.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  // Browser-side code as strings: the project compiles without the DOM library.
  const charts = await page.evaluate<
    { kind: string; points: number; markers: number; yMax?: number; yMin?: number }[]
  >(
    '(window.kraftsmanCharts || []).map((c) => ({ kind: c.kind, points: c.points, markers: c.markers, yMax: c.chart.scales.y.max, yMin: c.chart.scales.y.min }))',
  );
  // A canvas with drawn lines holds non-blank pixels.
  const inked = await page.evaluate<number[]>(`[...document.querySelectorAll('canvas')].map((cv) => {
    const { data } = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height);
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  })`);
  return { requests, errors, charts, inked };
}

describe('fleet report in Chromium', () => {
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-report-'));
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders every chart and table of two runs side by side, offline', async () => {
    const file = join(dir, 'report.html');
    const runs = [
      { label: 'kraftsman', run: sampleRun(false) },
      { label: 'upstream', run: sampleRun(true) },
    ];
    writeFileSync(file, renderReport(runs));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const { requests, errors, charts, inked } = await open(page, file);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(charts.map((c) => c.kind).sort()).toEqual(
      ['cost', 'cost', 'coverage', 'coverage', 'nodes', 'nodes', 'pending', 'pending'].sort(),
    );
    for (const c of charts) expect(c.points, c.kind).toBeGreaterThan(0);
    for (const n of inked) expect(n).toBeGreaterThan(100);
    // Escaped, not parsed as a tag: the id shows in each run's command table.
    expect(await page.locator('td', { hasText: 'cmd-<2>' }).count()).toBe(2);
    // The verdict at the top of each run: healthy, or unhealthy with the lost pods' owner named.
    expect(await page.locator('[data-verdict="healthy"]').count()).toBe(1);
    const bad = page.locator('[data-verdict="unhealthy"]');
    expect(await bad.count()).toBe(1);
    expect(await bad.textContent()).toMatch(/2 pod\(s\) lost, of ml\/trainer-0/);
    expect(await page.locator('td', { hasText: 'limit nvidia.com/gpu 16 would be exceeded' }).count()).toBe(
      2,
    );
    expect(await page.getByText('Commands in flight at the end: 1').count()).toBe(2);
    // Two command markers on each cost chart; pending from zero; each kind shares its y-scale side by side.
    for (const c of charts.filter((x) => x.kind === 'cost')) expect(c.markers).toBe(2);
    for (const c of charts.filter((x) => x.kind === 'pending')) expect(c.yMin).toBe(0);
    for (const kind of ['cost', 'nodes', 'pending']) {
      const maxes = charts.filter((c) => c.kind === kind).map((c) => c.yMax);
      expect(new Set(maxes).size, kind).toBe(1);
    }
    expect(await page.locator('pre.compare').textContent()).toMatch(/mode\s+kraftsman\s+upstream/);
    expect(await page.locator('p.caption').count()).toBe(8);
    await page.close();
  });

  it('renders a real fleet run: cost, nodes, pending and walk coverage charted; the tables filled; screenshot', async () => {
    const scenario = decayScenario('decay', { nodes: 30, pending: 80, minutes: 6, shedAt: [3, 4] });
    const { run, env } = await runFleet({
      scenario,
      seed: 42,
      speed: 1e6,
      minutes: 6,
      upstream: false,
      wallNow: Date.now,
    });
    await env.close();
    const file = join(dir, 'real.html');
    const runs: LabelledRun[] = [{ label: 'kraftsman', run }];
    writeFileSync(file, renderReport(runs));
    const page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
    const { requests, errors, charts, inked } = await open(page, file);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    // consolidate walks every minute, so its coverage gauges chart the walk.
    expect(charts.map((c) => c.kind).sort()).toEqual(['cost', 'coverage', 'nodes', 'pending']);
    // Seven samples (minutes 0–6) in every series.
    for (const c of charts) expect(c.points % 7, c.kind).toBe(0);
    for (const n of inked) expect(n).toBeGreaterThan(100);
    expect(await page.getByText('Walk coverage: no disruption function ran').count()).toBe(0);
    // A real run's verdict and the markers of the commands it finished.
    expect(await page.locator('[data-verdict]').getAttribute('data-verdict')).toBe(
      run.summary.invariants.lostPods ? 'unhealthy' : 'healthy',
    );
    expect(run.details.commandMarkers?.length).toBe(run.summary.commands.length);
    expect(run.samples.some((x) => x.coverage !== null && x.coverage > 0)).toBe(true);
    await page.screenshot({ path: resolve('docs/img/report.png'), fullPage: false });
    await page.close();
    // A real run through the handlers: under a loaded CI machine it takes longer than the default 60 s.
  }, 300_000);
});
