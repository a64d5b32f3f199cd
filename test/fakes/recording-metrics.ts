// A Metrics port that keeps every sample, so tests assert on names, values and labels.
import type { Labels, Metrics } from '../../shared/ports/metrics.ts';

export interface Sample {
  readonly kind: 'count' | 'gauge' | 'observe';
  readonly name: string;
  readonly value: number;
  readonly labels: Labels;
}

export class RecordingMetrics implements Metrics {
  readonly samples: Sample[] = [];
  flushes = 0;
  count(name: string, value = 1, labels: Labels = {}): void {
    this.samples.push({ kind: 'count', name, value, labels });
  }
  gauge(name: string, value: number, labels: Labels = {}): void {
    this.samples.push({ kind: 'gauge', name, value, labels });
  }
  observe(name: string, value: number, labels: Labels = {}): void {
    this.samples.push({ kind: 'observe', name, value, labels });
  }
  flush(): void {
    this.flushes += 1;
  }
  /** Sum of a counter's values whose labels include `where`. */
  total(name: string, where: Labels = {}): number {
    return this.named(name, where).reduce((n, s) => n + s.value, 0);
  }
  named(name: string, where: Labels = {}): Sample[] {
    return this.samples.filter(
      (s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v),
    );
  }
}
