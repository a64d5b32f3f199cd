// The report in a real browser: Debian's Chromium driven by playwright-core opens the file offline, every
// chart has rendered with data, and a screenshot is saved for the README (docs/img/report.png).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../../local/fleet/report/html.ts';
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

  it('renders every chart of both runs with data, offline, and screenshots it', async () => {
    const file = join(dir, 'report.html');
    const runs = [
      { label: 'kraftsman', run: sampleRun(false) },
      { label: 'upstream', run: sampleRun(true) },
    ];
    writeFileSync(file, renderReport(runs));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    // Browser-side code as strings: the project compiles without the DOM library.
    const charts = await page.evaluate<{ kind: string; points: number }[]>(
      '(window.kraftsmanCharts || []).map((c) => ({ kind: c.kind, points: c.points }))',
    );
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(charts.map((c) => c.kind).sort()).toEqual(
      ['cost', 'cost', 'coverage', 'coverage', 'nodes', 'nodes', 'pending', 'pending'].sort(),
    );
    for (const c of charts) expect(c.points, c.kind).toBeGreaterThan(0);
    // A canvas with drawn lines holds non-blank pixels.
    const inked = await page.evaluate<number[]>(`[...document.querySelectorAll('canvas')].map((cv) => {
      const { data } = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    })`);
    for (const n of inked) expect(n).toBeGreaterThan(100);
    // Escaped, not parsed as a tag: the id shows in each run's command table.
    expect(await page.locator('td', { hasText: 'cmd-<2>' }).count()).toBe(2);
    await page.screenshot({ path: resolve('docs/img/report.png'), fullPage: false });
    await page.close();
  });
});
