// Properties of disruption budgets: a ledger never goes negative and a held batch never overspends a pool;
// percentages round up and never exceed the pool; more budgets can only lower the allowance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import {
  allowedDisruptions,
  budgetActive,
  BudgetLedger,
  BudgetOverspendError,
} from '../../../shared/disruption/budgets.ts';
import { parseCron } from '../../../shared/model/cron.ts';
import { budgetSchema, nodePoolSchema, type NodePool } from '../../../shared/model/nodepool.ts';

const POOLS = ['p', 'q', 'r', 'missing'];
const mapping = fc
  .record({ p: fc.nat(5), q: fc.nat(5), r: fc.nat(5) })
  .map((m) => new Map(Object.entries(m)));
const proposal = fc.array(fc.constantFrom(...POOLS), { minLength: 1, maxLength: 4 });

const pool = (budgets: { nodes: string; reasons?: ('Empty' | 'Drifted' | 'Underutilized')[] }[]): NodePool =>
  nodePoolSchema.parse({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'p' },
    spec: {
      template: { spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' } } },
      disruption: { budgets: budgets.map((b) => budgetSchema.parse(b)) },
    },
  });
const nodesValue = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
  fc.nat(50).map(String),
);
const now = new Date('2026-11-30T01:00:00Z');

/** Brute force: does a firing lie in (now − duration, now]? Every minute of the window checked against the cron sets. */
function activeByEnumeration(schedule: string, durationMin: number, at: Date): boolean {
  const c = parseCron(schedule);
  const lastMinute = Math.floor(at.getTime() / 60_000) * 60_000;
  for (let t = lastMinute; t > at.getTime() - durationMin * 60_000; t -= 60_000) {
    const d = new Date(t);
    const dom = c.daysOfMonth.has(d.getUTCDate());
    const dow = c.daysOfWeek.has(d.getUTCDay());
    const day = c.domStar || c.dowStar ? dom && dow : dom || dow;
    if (
      day &&
      c.months.has(d.getUTCMonth() + 1) &&
      c.hours.has(d.getUTCHours()) &&
      c.minutes.has(d.getUTCMinutes())
    )
      return true;
  }
  return false;
}

describe('budget windows', () => {
  it('a scheduled budget is active exactly when a firing lies in (now − duration, now]', () => {
    const schedules = [
      '0 9 * * *',
      '*/15 * * * *',
      '30 */6 * * *',
      '0 22 * * fri',
      '0 0 1 * *',
      '45 3 * * 1-5',
      '@hourly',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...schedules),
        fc.integer({ min: 1, max: 72 * 60 }),
        fc.integer({ min: 0, max: 40 * 24 * 3600 * 1000 }),
        (schedule, durationMin, offsetMs) => {
          const at = new Date(Date.UTC(2026, 10, 1) + offsetMs);
          const duration =
            durationMin >= 60 ? `${Math.floor(durationMin / 60)}h${durationMin % 60}m` : `${durationMin}m`;
          const b = budgetSchema.parse({ nodes: '0', schedule, duration });
          expect(budgetActive(b, at)).toBe(activeByEnumeration(schedule, durationMin, at));
        },
      ),
      propertyRuns(),
    );
  });
});

describe('budget ledger properties', () => {
  it('a batch held proposal by proposal never overspends any pool and never goes negative', () => {
    fc.assert(
      fc.property(mapping, fc.array(proposal, { maxLength: 12 }), (start, proposals) => {
        const original = new Map(start);
        let ledger = BudgetLedger.from(start);
        const held = new Map<string, number>();
        for (const p of proposals) {
          const next = ledger.tryHold(p);
          if (next === undefined) {
            expect(() => ledger.hold(p)).toThrow(BudgetOverspendError);
            continue;
          }
          ledger = next;
          for (const name of p) held.set(name, (held.get(name) ?? 0) + 1);
        }
        for (const name of POOLS) {
          const initial = start.get(name) ?? 0;
          expect(ledger.remaining(name)).toBeGreaterThanOrEqual(0);
          expect(held.get(name) ?? 0).toBeLessThanOrEqual(initial);
          expect(ledger.remaining(name)).toBe(initial - (held.get(name) ?? 0));
        }
        // The caller's mapping is untouched.
        expect(start).toEqual(original);
      }),
      propertyRuns(),
    );
  });

  it('a percentage allows ceil(percent × nodes / 100), never more than the pool, and at least one node when positive', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.nat(500), (percent, count) => {
        const allowed = allowedDisruptions(pool([{ nodes: `${percent}%` }]), count, 'Drifted', now);
        expect(allowed).toBe(Math.ceil((percent * count) / 100));
        expect(allowed).toBeLessThanOrEqual(count);
        if (percent > 0 && count > 0) expect(allowed).toBeGreaterThanOrEqual(1);
      }),
      propertyRuns(),
    );
  });

  it('adding a budget can only lower (or keep) the allowance for any reason', () => {
    fc.assert(
      fc.property(
        fc.array(nodesValue, { minLength: 1, maxLength: 4 }),
        nodesValue,
        fc.option(fc.subarray(['Empty', 'Drifted', 'Underutilized'] as const, { minLength: 1 }), {
          nil: undefined,
        }),
        fc.nat(300),
        fc.constantFrom('Empty', 'Drifted', 'Underutilized' as const),
        (existing, extra, reasons, count, reason) => {
          const before = allowedDisruptions(pool(existing.map((nodes) => ({ nodes }))), count, reason, now);
          const after = allowedDisruptions(
            pool([
              ...existing.map((nodes) => ({ nodes })),
              { nodes: extra, ...(reasons ? { reasons: [...reasons] } : {}) },
            ]),
            count,
            reason,
            now,
          );
          expect(after).toBeLessThanOrEqual(before);
        },
      ),
      propertyRuns(),
    );
  });
});
