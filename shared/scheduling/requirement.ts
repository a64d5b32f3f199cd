// One node-selector requirement in Karpenter's algebra: a (possibly complemented) value set with integer
// bounds (Gt/Lt; Gte/Lte are normalised to them) and minValues. Mirrors scheduling.Requirement semantics.
import type { NodeSelectorOperator } from '../model/meta.ts';

export type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

const EMPTY: ReadonlySet<string> = new Set();

export class Requirement {
  constructor(
    readonly key: string,
    /** true: every value except `values`; false: exactly `values`. */
    readonly complement: boolean,
    readonly values: ReadonlySet<string>,
    readonly greaterThan?: number,
    readonly lessThan?: number,
    readonly minValues?: number,
  ) {}

  static of(
    key: string,
    op: NodeSelectorOperator,
    values: readonly string[] = [],
    minValues?: number,
  ): Requirement {
    switch (op) {
      case 'In':
        return new Requirement(key, false, new Set(values), undefined, undefined, minValues);
      case 'NotIn':
        return new Requirement(key, true, new Set(values), undefined, undefined, minValues);
      case 'Exists':
        return new Requirement(key, true, EMPTY, undefined, undefined, minValues);
      case 'DoesNotExist':
        return new Requirement(key, false, EMPTY, undefined, undefined, minValues);
      case 'Gt':
        return new Requirement(key, true, EMPTY, Number(values[0]), undefined, minValues);
      case 'Gte':
        return new Requirement(key, true, EMPTY, Number(values[0]) - 1, undefined, minValues);
      case 'Lt':
        return new Requirement(key, true, EMPTY, undefined, Number(values[0]), minValues);
      case 'Lte':
        return new Requirement(key, true, EMPTY, undefined, Number(values[0]) + 1, minValues);
    }
  }

  static in(key: string, ...values: string[]): Requirement {
    return new Requirement(key, false, new Set(values));
  }

  static exists(key: string): Requirement {
    return new Requirement(key, true, EMPTY);
  }

  static doesNotExist(key: string): Requirement {
    return new Requirement(key, false, EMPTY);
  }

  /** The operator this requirement reads as (Karpenter's Operator()). */
  operator(): Operator {
    if (this.complement) {
      if (this.values.size > 0) return 'NotIn';
      if (this.greaterThan !== undefined) return 'Gt';
      if (this.lessThan !== undefined) return 'Lt';
      return 'Exists';
    }
    return this.values.size > 0 ? 'In' : 'DoesNotExist';
  }

  /** Number of values it admits (complements are effectively infinite). */
  size(): number {
    return this.complement ? Number.MAX_SAFE_INTEGER - this.values.size : this.values.size;
  }

  private withinBounds(value: string): boolean {
    if (this.greaterThan === undefined && this.lessThan === undefined) return true;
    if (!/^-?\d+$/.test(value)) return false;
    const n = Number(value);
    return (
      (this.greaterThan === undefined || n > this.greaterThan) &&
      (this.lessThan === undefined || n < this.lessThan)
    );
  }

  has(value: string): boolean {
    return this.complement
      ? !this.values.has(value) && this.withinBounds(value)
      : this.values.has(value) && this.withinBounds(value);
  }

  /** The single value, when the requirement admits exactly one. */
  single(): string | undefined {
    if (this.complement || this.values.size !== 1) return undefined;
    for (const v of this.values) return v;
    return undefined;
  }

  intersection(other: Requirement): Requirement {
    const gt = maxDefined(this.greaterThan, other.greaterThan);
    const lt = minDefined(this.lessThan, other.lessThan);
    const minValues = maxDefined(this.minValues, other.minValues);
    if (gt !== undefined && lt !== undefined && gt + 1 >= lt) {
      return new Requirement(this.key, false, EMPTY, undefined, undefined, minValues);
    }
    if (this.complement && other.complement) {
      const values = new Set(this.values);
      for (const v of other.values) values.add(v);
      return new Requirement(this.key, true, values, gt, lt, minValues);
    }
    const inSet = this.complement ? other : this;
    const otherSide = this.complement ? this : other;
    const values = new Set<string>();
    for (const v of inSet.values) {
      if (otherSide.has(v)) values.add(v);
    }
    const bounded = new Requirement(this.key, false, values, gt, lt, minValues);
    const filtered = new Set<string>();
    for (const v of values) if (bounded.has(v)) filtered.add(v);
    return new Requirement(this.key, false, filtered, undefined, undefined, minValues);
  }

  /** True when some value satisfies both (Karpenter: Intersection(...).Len() > 0). */
  intersects(other: Requirement): boolean {
    if (!this.complement || !other.complement) {
      const inSet = this.complement ? other : this;
      const otherSide = this.complement ? this : other;
      for (const v of inSet.values) if (otherSide.has(v) && inSet.has(v)) return true;
      return false;
    }
    return this.intersection(other).size() > 0;
  }

  toSelector(): { key: string; operator: Operator; values: string[]; minValues?: number } {
    const op = this.operator();
    const values =
      op === 'Gt'
        ? [String(this.greaterThan)]
        : op === 'Lt'
          ? [String(this.lessThan)]
          : [...this.values].sort();
    return this.minValues === undefined
      ? { key: this.key, operator: op, values }
      : { key: this.key, operator: op, values, minValues: this.minValues };
  }

  toString(): string {
    const s = this.toSelector();
    return s.values.length ? `${s.key} ${s.operator} [${s.values.join(', ')}]` : `${s.key} ${s.operator}`;
  }
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
