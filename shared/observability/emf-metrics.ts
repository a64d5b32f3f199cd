// The Metrics port as CloudWatch embedded metric format through Powertools Metrics: samples are grouped by
// their label set (one EMF document per set, labels as dimensions) and written out on flush().
import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import type { Labels, Metrics } from '../ports/metrics.ts';

/** Where EMF documents go: one JSON line each (stdout in Lambda, where CloudWatch Logs picks them up). */
export type EmfSink = (line: string) => void;

export interface EmfMetricsOptions {
  readonly namespace: string;
  readonly serviceName: string;
  /** Dimensions on every document (e.g. the cluster); keep them few, each one multiplies series. */
  readonly defaultDimensions?: Labels;
  readonly sink?: EmfSink;
}

type Kind = 'count' | 'gauge' | 'observe';
interface Group {
  readonly labels: Labels;
  readonly samples: Map<string, { kind: Kind; values: number[] }>;
}

/** EMF allows 30 dimensions per document, Powertools keeps at most 100 values per metric. */
const MAX_LABELS = 29;
const MAX_VALUES = 100;

const unitOf = (name: string, kind: Kind): Unit =>
  name.endsWith('_seconds')
    ? MetricUnit.Seconds
    : kind === 'count' || name.endsWith('_total')
      ? MetricUnit.Count
      : MetricUnit.NoUnit;

const stdoutSink: EmfSink = (line) => void process.stdout.write(`${line}\n`);

export class EmfMetrics implements Metrics {
  private readonly groups = new Map<string, Group>();
  private readonly sink: EmfSink;

  constructor(private readonly options: EmfMetricsOptions) {
    this.sink = options.sink ?? stdoutSink;
  }

  count(name: string, value = 1, labels?: Labels): void {
    const s = this.sample(name, 'count', labels);
    // Counters add up within a flush: one value per document, whatever the number of increments.
    s.values[0] = (s.values[0] ?? 0) + value;
  }

  gauge(name: string, value: number, labels?: Labels): void {
    this.sample(name, 'gauge', labels).values[0] = value;
  }

  observe(name: string, value: number, labels?: Labels): void {
    const s = this.sample(name, 'observe', labels);
    if (s.values.length < MAX_VALUES) s.values.push(value);
  }

  /** Writes every group as one EMF document and forgets them (call at the end of each invocation). */
  flush(): void {
    for (const group of this.groups.values()) {
      const m = new PowertoolsMetrics({
        namespace: this.options.namespace,
        serviceName: this.options.serviceName,
        ...(this.options.defaultDimensions
          ? { defaultDimensions: { ...this.options.defaultDimensions } }
          : {}),
      });
      m.addDimensions({ ...group.labels });
      for (const [name, s] of group.samples)
        for (const v of s.values) m.addMetric(name, unitOf(name, s.kind), v);
      this.sink(JSON.stringify(m.serializeMetrics()));
      m.clearMetrics();
    }
    this.groups.clear();
  }

  private sample(name: string, kind: Kind, given: Labels = {}): { kind: Kind; values: number[] } {
    // A CloudWatch dimension value has 1 to 1,024 characters: a label Karpenter leaves empty (drift's
    // consolidation_type) is no dimension at all, dropped here rather than by Powertools with a warning per flush.
    const labels = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== ''));
    const keys = Object.keys(labels).sort();
    if (keys.length > MAX_LABELS)
      throw new RangeError(`metric ${name}: ${keys.length} labels, EMF allows ${MAX_LABELS}`);
    const id = JSON.stringify(keys.map((k) => [k, labels[k]]));
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = { labels: { ...labels }, samples: new Map() }));
    let s = group.samples.get(name);
    if (!s) group.samples.set(name, (s = { kind, values: [] }));
    return s;
  }
}
