// A set of requirements keyed by label (Karpenter's scheduling.Requirements): add = intersect per key,
// and the two compatibility checks the scheduler uses (Compatible with undefined-key rules, Intersects).
import type { NodeSelectorRequirement } from '../model/meta.ts';
import { WELL_KNOWN_LABELS } from '../model/labels.ts';
import { Requirement } from './requirement.ts';

export type AllowUndefined = ReadonlySet<string> | undefined;

export class Requirements {
  private readonly byKey: Map<string, Requirement>;

  constructor(reqs: Iterable<Requirement> = []) {
    this.byKey = new Map();
    for (const r of reqs) this.add(r);
  }

  static fromSelectors(selectors: readonly NodeSelectorRequirement[] | undefined): Requirements {
    const out = new Requirements();
    for (const s of selectors ?? []) out.add(Requirement.of(s.key, s.operator, s.values ?? [], s.minValues));
    return out;
  }

  static fromLabels(labels: Readonly<Record<string, string>> | undefined): Requirements {
    const out = new Requirements();
    for (const [k, v] of Object.entries(labels ?? {})) out.add(Requirement.in(k, v));
    return out;
  }

  copy(): Requirements {
    const out = new Requirements();
    for (const [k, r] of this.byKey) out.byKey.set(k, r);
    return out;
  }

  /** Intersects `r` into the set (in place); a requirement that narrows nothing keeps the stored object. */
  add(r: Requirement): this {
    const existing = this.byKey.get(r.key);
    if (!existing) this.byKey.set(r.key, r);
    else if (existing !== r && !sameRequirement(existing, r)) {
      const merged = existing.intersection(r);
      this.byKey.set(r.key, sameRequirement(existing, merged) ? existing : merged);
    }
    return this;
  }

  addAll(other: Requirements): this {
    for (const r of other.byKey.values()) this.add(r);
    return this;
  }

  /** The stored requirement object for a key (identity changes whenever the key is narrowed). */
  peek(key: string): Requirement | undefined {
    return this.byKey.get(key);
  }

  /** Keys whose requirement differs (by identity) from `before`'s. */
  changedSince(before: Requirements): string[] {
    const out: string[] = [];
    for (const [k, r] of this.byKey) if (before.byKey.get(k) !== r) out.push(k);
    return out;
  }

  /** Karpenter's Intersects restricted to the given keys (the others are known to be compatible). */
  conflictOn(incoming: Requirements, keys: readonly string[]): string | undefined {
    for (const key of keys) {
      const inc = incoming.byKey.get(key);
      const existing = this.byKey.get(key);
      if (!inc || !existing || existing.intersects(inc)) continue;
      if (isNegative(inc) && isNegative(existing)) continue;
      return key;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): Requirement {
    return this.byKey.get(key) ?? Requirement.exists(key);
  }

  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  values(): IterableIterator<Requirement> {
    return this.byKey.values();
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Labels this set pins to exactly one value. */
  labels(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, r] of this.byKey) {
      const v = r.single();
      if (v !== undefined) out[k] = v;
    }
    return out;
  }

  /**
   * Karpenter's Intersects: every shared key must admit a common value, except that NotIn/DoesNotExist on both
   * sides are compatible. Returns the first conflicting key, or undefined.
   */
  conflict(incoming: Requirements): string | undefined {
    const [small, large] = this.byKey.size <= incoming.byKey.size ? [this, incoming] : [incoming, this];
    for (const key of small.byKey.keys()) {
      const other = large.byKey.get(key);
      if (!other) continue;
      const existing = this.byKey.get(key) as Requirement;
      const inc = incoming.byKey.get(key) as Requirement;
      if (existing.intersects(inc)) continue;
      if (isNegative(inc) && isNegative(existing)) continue;
      return key;
    }
    return undefined;
  }

  /**
   * Karpenter's Compatible: keys the incoming set requires but this set does not define are allowed only when
   * well known (or in `allowUndefined`) or negative (NotIn, DoesNotExist); shared keys must intersect.
   * Returns a reason when incompatible.
   */
  incompatibility(
    incoming: Requirements,
    allowUndefined: AllowUndefined = WELL_KNOWN_LABELS,
  ): string | undefined {
    for (const [key, inc] of incoming.byKey) {
      if (this.byKey.has(key)) continue;
      if (allowUndefined?.has(key) || isNegative(inc)) continue;
      return `label "${key}" does not have known values`;
    }
    const key = this.conflict(incoming);
    if (key !== undefined) {
      return `incompatible requirements, key ${key}, ${incoming.get(key).toString()} not in ${this.get(key).toString()}`;
    }
    return undefined;
  }

  compatible(incoming: Requirements, allowUndefined: AllowUndefined = WELL_KNOWN_LABELS): boolean {
    return this.incompatibility(incoming, allowUndefined) === undefined;
  }

  toSelectors(): ReturnType<Requirement['toSelector']>[] {
    return [...this.byKey.values()].map((r) => r.toSelector()).sort((a, b) => a.key.localeCompare(b.key));
  }

  toString(): string {
    return [...this.byKey.values()].map((r) => r.toString()).join(', ');
  }

  /** Every key's values, bounds and minValues as order-independent text: equal sets, equal text (memo keys). */
  fingerprint(): string {
    return [...this.byKey.values()].map(fingerprintOf).sort().join('\u0001');
  }
}

function fingerprintOf(r: Requirement): string {
  const values = [...r.values].sort().join('\u0003');
  return `${r.key}\u0002${r.complement ? '!' : ''}${values}\u0002${r.greaterThan ?? ''}\u0002${r.lessThan ?? ''}\u0002${r.minValues ?? ''}`;
}

function sameRequirement(a: Requirement, b: Requirement): boolean {
  if (a.complement !== b.complement || a.greaterThan !== b.greaterThan || a.lessThan !== b.lessThan)
    return false;
  if (a.minValues !== b.minValues || a.values.size !== b.values.size) return false;
  for (const v of a.values) if (!b.values.has(v)) return false;
  return true;
}

function isNegative(r: Requirement): boolean {
  const op = r.operator();
  return op === 'NotIn' || op === 'DoesNotExist';
}

/** Strict equality of allowed value sets on one key, for labels of existing nodes (no undefined allowance). */
export const NO_UNDEFINED: AllowUndefined = new Set<string>();

// Node label sets are shared by every pod on the node and by every simulation of a pass, so their
// requirement form is built once per label object. Callers must not mutate it (copy() first).
const byLabels = new WeakMap<object, Requirements>();
export function labelRequirements(labels: Readonly<Record<string, string>>): Requirements {
  let r = byLabels.get(labels);
  if (!r) byLabels.set(labels, (r = Requirements.fromLabels(labels)));
  return r;
}
