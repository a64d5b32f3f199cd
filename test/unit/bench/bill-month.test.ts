// bench:bill's month: measured use extrapolated on serverless.yml's schedules and priced line by line.
import { describe, expect, it } from 'vitest';
import { monthlyBill, MONTH_MINUTES, PLATFORM_LOG_BYTES } from '../../bench/bill/month.ts';
import { deployedFunctions, rateMinutes } from '../../bench/bill/deployment.ts';
import type { FunctionUse } from '../../bench/bill/meter.ts';
import { PRICE_TABLE } from '../../bench/bill/prices.ts';
import { extrapolateBill } from '../../bench/bill/extrapolate.ts';

const use = (u: Partial<FunctionUse>): FunctionUse => ({
  invocations: 0,
  billedMs: 0,
  cpuMs: 0,
  dynamoRequests: 0,
  rru: 0,
  wru: 0,
  conditionalFailures: 0,
  logBytes: 0,
  emfBytes: 0,
  ...u,
});

describe('monthlyBill', () => {
  it('prices a scheduled function per measured invocation and an invoked one by its measured rate', () => {
    const deployed = [
      { name: 'consolidate', memoryMb: 2048, timeoutSeconds: 300, everyMinutes: 1 },
      { name: 'launch-aws', memoryMb: 1024, timeoutSeconds: 120 },
    ];
    const bill = monthlyBill(
      {
        minutes: 10,
        uses: new Map([
          ['consolidate', use({ invocations: 10, billedMs: 10_000, wru: 20, rru: 40, logBytes: 1_000 })],
          ['launch-aws', use({ invocations: 2, billedMs: 1_000 })],
        ]),
        metrics: 10,
        sqsMessages: 0,
      },
      deployed,
      PRICE_TABLE,
    );
    const [c, l] = bill.functions;
    expect(c).toMatchObject({ invocations: MONTH_MINUTES, meanMs: 1_000, gbSeconds: 2 * MONTH_MINUTES });
    expect(c?.wru).toBe(2 * MONTH_MINUTES);
    expect(c?.rru).toBe(4 * MONTH_MINUTES);
    expect(c?.logBytes).toBe((100 + PLATFORM_LOG_BYTES) * MONTH_MINUTES);
    expect(l).toMatchObject({ invocations: (2 * MONTH_MINUTES) / 10, meanMs: 500 });
    expect(bill.metricsUsd).toBeCloseTo(3, 10);
  });

  it('bills provision its whole watch, 14 minutes of every 15, whatever its batches took', () => {
    const bill = monthlyBill(
      { minutes: 5, uses: new Map(), metrics: 0, sqsMessages: 0 },
      [{ name: 'provision', memoryMb: 1024, timeoutSeconds: 900, everyMinutes: 1 }],
      PRICE_TABLE,
    );
    const watching = MONTH_MINUTES / 15;
    expect(bill.functions[0]?.gbSeconds).toBeCloseTo(
      watching * 14 * 60 + (MONTH_MINUTES - watching) * 0.05,
      6,
    );
  });
});

describe('serverless.yml schedules', () => {
  it('reads each rate and memory, and names the function of a schedule it cannot read', () => {
    expect(rateMinutes('census', 'rate(10 minutes)')).toBe(10);
    expect(rateMinutes('pricing', 'rate(12 hours)')).toBe(720);
    expect(() => rateMinutes('census', 'cron(0 * * * ? *)')).toThrow(/functions\.census\.events/);
    const fns = deployedFunctions();
    expect(fns.find((f) => f.name === 'consolidate')).toMatchObject({ memoryMb: 3008, everyMinutes: 1 });
    expect(fns.find((f) => f.name === 'launch-aws')?.everyMinutes).toBeUndefined();
  });
});

describe('extrapolateBill', () => {
  it('fits each line through the two measured sizes: at a measured size it gives that bill', () => {
    const measure = (billedMs: number) =>
      monthlyBill(
        {
          minutes: 10,
          uses: new Map([['consolidate', use({ invocations: 10, billedMs, wru: billedMs / 100 })]]),
          metrics: 5,
          sqsMessages: 0,
        },
        [{ name: 'consolidate', memoryMb: 1024, timeoutSeconds: 300, everyMinutes: 1 }],
        PRICE_TABLE,
      );
    const small = { nodes: 100, bill: measure(10_000) };
    const large = { nodes: 1_000, bill: measure(100_000) };
    expect(extrapolateBill(small, large, 1_000, PRICE_TABLE).totalUsd).toBeCloseTo(large.bill.totalUsd, 9);
    const at5000 = extrapolateBill(small, large, 5_000, PRICE_TABLE);
    // 1 s per 100 nodes per invocation: 50 s at 5,000 nodes.
    expect(at5000.functions[0]?.meanMs).toBeCloseTo(50_000, 6);
    expect(at5000.functions[0]?.basis).toMatch(/^EXTRAPOLATED/);
    expect(() => extrapolateBill(small, small, 5_000, PRICE_TABLE)).toThrow(/two sizes/);
  });
});
