// What happened during a run, counted as it happened: every handler result summed by function and field,
// failed invocations, and the instances each cloud's world holds (launched since the start, terminated).
import type { Ec2World } from '../ec2/world.ts';
import type { GceWorld } from '../gce/world.ts';
import type { InProcessInvoker } from '../../shared/adapters/memory/invoker.ts';

export type Cloud = 'aws' | 'gcp';

export class Ledger {
  /** Numeric fields of each function's results, summed: provision.claimsCreated, lifecycle.terminated, ... */
  readonly totals = new Map<string, number>();
  readonly failures: { fn: string; error: string }[] = [];
  private readonly initial: Record<Cloud, Set<string>>;
  private readonly seen: Record<Cloud, Set<string>> = { aws: new Set(), gcp: new Set() };
  /** The providerID of every instance seen live, with the last sample (minute) it was live at. */
  private readonly lastLive = new Map<string, number>();
  private samples = 0;

  constructor(private readonly clouds: { ec2: Ec2World; gce: GceWorld }) {
    this.initial = { aws: new Set(this.live('aws')), gcp: new Set(this.live('gcp')) };
  }

  /** The last result of each function, as it returned it. */
  readonly last = new Map<string, Readonly<Record<string, unknown>>>();

  add(fn: string, result: unknown): void {
    if (!result || typeof result !== 'object') return;
    if (!fn.includes('.')) this.last.set(fn, result as Record<string, unknown>);
    for (const [k, v] of Object.entries(result)) {
      if (typeof v === 'number') this.bump(`${fn}.${k}`, v);
      else if (typeof v === 'string' && k === 'outcome') this.bump(`${fn}.${v}`, 1);
      else if (v && typeof v === 'object' && !Array.isArray(v)) this.add(`${fn}.${k}`, v);
    }
  }

  fail(fn: string, err: unknown): void {
    this.bump(`${fn}.invocationsFailed`, 1);
    if (this.failures.length < 200)
      this.failures.push({ fn, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }

  /** A numeric field of a function's last result (undefined when it never returned one). */
  lastOf(fn: string, field: string): number | undefined {
    const v = this.last.get(fn)?.[field];
    return typeof v === 'number' ? v : undefined;
  }

  get(key: string): number {
    return this.totals.get(key) ?? 0;
  }

  /** Called every simulated minute: instances are noted while they live, so a terminated one still counts. */
  sampleClouds(): void {
    this.samples += 1;
    for (const c of ['aws', 'gcp'] as const)
      for (const id of this.live(c)) {
        this.seen[c].add(id);
        this.lastLive.set(this.providerId(c, id), this.samples);
      }
  }

  /** providerIDs of instances live at one of the last `samples` samples but not now: still on their way out. */
  goneWithin(samples: number): Set<string> {
    const live = new Set([
      ...this.live('aws').map((id) => this.providerId('aws', id)),
      ...this.live('gcp').map((id) => this.providerId('gcp', id)),
    ]);
    const recent = [...this.lastLive].filter(([id, at]) => !live.has(id) && at > this.samples - samples);
    return new Set(recent.map(([id]) => id));
  }

  /** Instances launched during the run and instances of the run's start or its launches that are gone. */
  instances(): Record<Cloud, { launched: number; terminated: number; live: number }> {
    for (const c of ['aws', 'gcp'] as const) for (const id of this.live(c)) this.seen[c].add(id);
    const out = {} as Record<Cloud, { launched: number; terminated: number; live: number }>;
    for (const c of ['aws', 'gcp'] as const) {
      const live = new Set(this.live(c));
      const launched = [...this.seen[c]].filter((id) => !this.initial[c].has(id)).length;
      const terminated = [...this.seen[c]].filter((id) => !live.has(id)).length;
      out[c] = { launched, terminated, live: live.size };
    }
    return out;
  }

  /** Launch invocations the in-process invoker gave up on after Lambda's three attempts. */
  static failedLaunches(invoker: InProcessInvoker): number {
    return invoker.records.filter((r) => r.outcome === 'failed').length;
  }

  private live(c: Cloud): string[] {
    if (c === 'aws')
      return [...this.clouds.ec2.instances.values()]
        .filter((i) => i.state === 'pending' || i.state === 'running')
        .map((i) => i.instanceId);
    return [...this.clouds.gce.instances.values()]
      .filter((i) => i.status !== 'STOPPING' && i.status !== 'TERMINATED')
      .map((i) => `${i.zone}/${i.name}`);
  }

  private providerId(c: Cloud, id: string): string {
    if (c === 'gcp') return `gce://${this.clouds.gce.project}/${id}`;
    const zone = this.clouds.ec2.instances.get(id)?.zone ?? '';
    return `aws:///${zone}/${id}`;
  }

  private bump(key: string, n: number): void {
    this.totals.set(key, (this.totals.get(key) ?? 0) + n);
  }
}
