// Metrics port: counters, gauges and histograms with labels; names follow Karpenter's where they exist.
export type Labels = Readonly<Record<string, string>>;

export interface Metrics {
  count(name: string, value?: number, labels?: Labels): void;
  gauge(name: string, value: number, labels?: Labels): void;
  observe(name: string, value: number, labels?: Labels): void;
}
