// The stack's CloudWatch dashboard and alarms (docs/observability.md "Dashboard", "Alarms") in the packaged
// template: the body is valid dashboard JSON for this cluster, every panel reads a metric some function
// publishes with the dimension set it publishes it under, and the alarms watch the dead-letter queue and the
// invariant metrics.
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withCloudProviderMetrics } from '../../shared/observability/cloud-provider-metrics.ts';
import type { Labels } from '../../shared/ports/metrics.ts';
import { clusterStateMetrics } from '../../shared/state/cluster-metrics.ts';
import { node, nodePool, pod, snapshotOf } from '../unit/disruption/fixtures.ts';
import { ROOT } from './support/derive.ts';
import { CI_PARAMS, type Packaged } from './support/package.ts';
import { packagedService } from './support/packaged.ts';

let packaged: Packaged;
beforeAll(async () => {
  packaged = await packagedService();
}, 600_000);

const readdirSyncTyped = (dir: string): Dirent[] => readdirSync(dir, { withFileTypes: true });

/** Every metric name the product's code spells out (Karpenter's and kraftsman's). */
function publishedNames(): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSyncTyped(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(/'((?:karpenter|kraftsman)_[a-z_]+)'/g))
          out.add(m[1] as string);
    }
  };
  walk(join(ROOT, 'shared'));
  walk(join(ROOT, 'functions'));
  return out;
}

/** The label keys the code publishes each cluster-state and cloud-provider metric with, observed by calling it. */
async function observedLabelSets(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const pool = nodePool('gpu');
  (pool.spec as Record<string, unknown>).limits = { 'nvidia.com/gpu': '8' };
  const snapshot = snapshotOf([pool, node('n', { pool: 'gpu' }), pod('p', { node: 'n' })]);
  for (const m of clusterStateMetrics(snapshot)) out.set(m.name, Object.keys(m.labels));
  const record = (name: string, _v?: number, labels: Labels = {}) => void out.set(name, Object.keys(labels));
  const provider = withCloudProviderMetrics(
    { cloud: 'aws', list: () => Promise.reject(new Error('x')) },
    { count: record, gauge: record, observe: record },
    { now: () => new Date(0) },
    'lifecycle',
  );
  await provider.list().catch(() => undefined);
  return out;
}

interface Widget {
  type: string;
  properties: { metrics?: { expression: string }[][]; region?: string; markdown?: string };
}

function dashboard(): { widgets: Widget[] } {
  const r = packaged.template.Resources.Dashboard;
  expect(r?.Type).toBe('AWS::CloudWatch::Dashboard');
  const body = (r?.Properties.DashboardBody as { 'Fn::Sub': string })['Fn::Sub'];
  // CloudFormation substitutes the region; every other ${...} was resolved when the stack was packaged
  expect(body.replaceAll('${AWS::Region}', '')).not.toContain('${');
  return JSON.parse(body.replaceAll('${AWS::Region}', 'us-west-2')) as { widgets: Widget[] };
}

const SEARCH =
  /^SEARCH\('\{kraftsman,([a-z_,]+)\} MetricName="([a-z_]+)" cluster="([^"]+)"( [a-z_]+="[^"]+")*', '(Maximum|Sum|Average)', 60\)$/;

describe('the dashboard', () => {
  it('has the panels of a Karpenter dashboard, each on this cluster and region', () => {
    const { widgets } = dashboard();
    const titles = widgets.map((w) => (w.properties as { title?: string }).title ?? '');
    for (const panel of [
      /Cost per hour/,
      /Nodes by NodePool and capacity type/,
      /Pods by phase/,
      /Disruption/,
      /walk/,
      /Census/,
    ])
      expect(
        titles.some((t) => panel.test(t)),
        String(panel),
      ).toBe(true);
    for (const w of widgets.filter((x) => x.type === 'metric')) expect(w.properties.region).toBe('us-west-2');
  });

  it('reads only metrics a function publishes, under the dimensions EMF gives them', async () => {
    const names = publishedNames();
    const labelSets = await observedLabelSets();
    const expressions = dashboard().widgets.flatMap((w) =>
      (w.properties.metrics ?? []).flat().map((m) => m.expression),
    );
    expect(expressions.length).toBeGreaterThanOrEqual(10);
    for (const e of expressions) {
      const m = SEARCH.exec(e);
      expect(m, e).not.toBeNull();
      const [, dims, metric, cluster] = m as unknown as [string, string, string, string];
      expect(names.has(metric), `${metric} is published by no function`).toBe(true);
      expect(cluster).toBe(CI_PARAMS.cluster);
      // Powertools puts the default dimensions (cluster, service) in every document's one dimension set
      const set = dims.split(',');
      expect(set).toEqual([...set].sort());
      expect(set).toContain('cluster');
      expect(set).toContain('service');
      const labels = labelSets.get(metric);
      if (labels) expect(set, metric).toEqual([...labels, 'cluster', 'service'].sort());
    }
    // the cluster-state and cloud-provider panels were checked against what the code emits
    expect(labelSets.size).toBeGreaterThan(8);
  });
});

describe('the alarms', () => {
  const alarms = () =>
    Object.entries(packaged.template.Resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');

  it('watch both dead-letter queues', () => {
    const queues = alarms().map(([, r]) => JSON.stringify(r.Properties.Dimensions ?? []));
    expect(queues.some((q) => q.includes('AsyncFailureQueue'))).toBe(true);
    expect(queues.some((q) => q.includes('InterruptionDeadLetterQueue'))).toBe(true);
  });

  it('watch the invariant metrics with Metrics Insights queries over this cluster', () => {
    const names = publishedNames();
    const queries = alarms().flatMap(([, r]) =>
      ((r.Properties.Metrics as { Expression?: string }[] | undefined) ?? []).map((m) => m.Expression ?? ''),
    );
    const watched = queries.map((q) => /SELECT SUM\(([a-z_]+)\)/.exec(q)?.[1]);
    expect(watched).toEqual(
      expect.arrayContaining([
        'kraftsman_destructive_actions_refused_total',
        'kraftsman_disruption_stranded_taints_removed_total',
      ]),
    );
    for (const [i, q] of queries.entries()) {
      expect(names.has(watched[i] ?? ''), q).toBe(true);
      expect(q).toContain(`WHERE cluster = '${CI_PARAMS.cluster}'`);
      expect(q).toMatch(/FROM SCHEMA\(kraftsman, [a-z_, ]*cluster[a-z_, ]*service\)/);
    }
  });
});

describe('docs/observability.md', () => {
  it('lists every metric a function publishes', () => {
    const doc = readFileSync(join(ROOT, 'docs/observability.md'), 'utf8');
    const missing = [...publishedNames()].filter((n) => !doc.includes(`\`${n}`));
    expect(missing).toEqual([]);
  });
});
