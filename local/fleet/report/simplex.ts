// A small dense simplex (Bland's rule, so it never cycles) for `maximize b·y subject to A y <= c, y >= 0`
// with c >= 0: the origin is feasible, so no phase one is needed. Exact enough for the report's lower bound.
const EPS = 1e-9;

export interface SimplexResult {
  readonly value: number;
  readonly y: readonly number[];
}

export class UnboundedLpError extends Error {
  override readonly name = 'UnboundedLpError';
}

/** rows: A (m × n), limits: c (m, all >= 0), objective: b (n). */
export function maximize(
  rows: readonly (readonly number[])[],
  limits: readonly number[],
  objective: readonly number[],
): SimplexResult {
  const m = rows.length;
  const n = objective.length;
  if (limits.some((c) => c < 0)) throw new RangeError('maximize: every limit must be >= 0');
  // Tableau: m constraint rows [A | I | c], basis starts at the slacks.
  const t = rows.map((row, i) => [
    ...row,
    ...Array.from({ length: m }, (_, j) => (i === j ? 1 : 0)),
    limits[i] ?? 0,
  ]);
  const cost = [...objective.map((b) => -b), ...Array.from({ length: m + 1 }, () => 0)];
  const basis = Array.from({ length: m }, (_, i) => n + i);
  for (;;) {
    const enter = cost.findIndex((v, j) => j < n + m && v < -EPS);
    if (enter < 0) break;
    const leave = ratioTest(t, enter);
    if (leave < 0) throw new UnboundedLpError(`the LP is unbounded along column ${enter}`);
    pivot(t, cost, leave, enter);
    basis[leave] = enter;
  }
  const y = Array.from({ length: n }, () => 0);
  basis.forEach((col, i) => {
    if (col < n) y[col] = t[i]![n + m]!;
  });
  return { value: cost[n + m]!, y };
}

/** The leaving row: minimum ratio, ties broken by the smallest basic index (Bland). */
function ratioTest(t: number[][], enter: number): number {
  let best = -1;
  let bestRatio = Infinity;
  const last = t[0] ? t[0].length - 1 : 0;
  t.forEach((row, i) => {
    const a = row[enter]!;
    if (a <= EPS) return;
    const ratio = row[last]! / a;
    if (ratio < bestRatio - EPS) {
      best = i;
      bestRatio = ratio;
    }
  });
  return best;
}

function pivot(t: number[][], cost: number[], r: number, c: number): void {
  const row = t[r]!;
  const p = row[c]!;
  for (let j = 0; j < row.length; j++) row[j] = row[j]! / p;
  const eliminate = (other: number[]): void => {
    const f = other[c]!;
    if (Math.abs(f) <= EPS) return;
    for (let j = 0; j < other.length; j++) other[j] = other[j]! - f * row[j]!;
  };
  t.forEach((other, i) => {
    if (i !== r) eliminate(other);
  });
  eliminate(cost);
}
