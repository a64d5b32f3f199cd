// The consolidate → admit payload at both ends: validated naming the field, bounded in count and bytes, sent
// in order by the hand-off; and the walk budgets shrunk to what an invocation has left.
import { describe, expect, it } from 'vitest';
import { MAX_PROPOSALS } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { InProcessInvoker } from '../../../shared/adapters/memory/invoker.ts';
import {
  AdmitPayloadError,
  MAX_ADMIT_PAYLOAD_BYTES,
  handOffToAdmit,
  parseAdmitPayload,
} from '../../../shared/loop/admit-payload.ts';
import { withinInvocation } from '../../../shared/loop/consolidate.ts';

const proposal = (node: string, types = ['g5.xlarge']) => ({
  method: 'single-node-consolidation' as const,
  reason: 'Underutilized' as const,
  candidates: [node],
  replacements: [
    {
      nodePool: 'gpu',
      cloud: 'aws' as const,
      instanceTypes: types,
      capacityType: 'on-demand' as const,
      zone: 'us-east-1a',
      price: 1.006,
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: types }],
    },
  ],
  savingsPerHour: 4.6,
});

describe('the admit payload', () => {
  it('round-trips in order and names every bad field', () => {
    const ok = { cluster: 'c1', passId: 'evt-1', createdAt: 1, proposals: [proposal('a'), proposal('b')] };
    expect(parseAdmitPayload(ok).proposals.map((p) => p.candidates[0])).toEqual(['a', 'b']);
    expect(() =>
      parseAdmitPayload({ ...ok, cluster: '', proposals: [{ ...proposal('a'), savingsPerHour: 'x' }] }),
    ).toThrow(/admit payload\.cluster: .*; admit payload\.proposals\[0\]\.savingsPerHour/);
    const { createdAt: _, ...unstamped } = ok;
    expect(() => parseAdmitPayload(unstamped)).toThrow(/admit payload\.createdAt/);
  });

  it(`refuses more than ${MAX_PROPOSALS} proposals, and more than ${MAX_ADMIT_PAYLOAD_BYTES} bytes`, () => {
    const many = Array.from({ length: MAX_PROPOSALS + 1 }, (_, i) => proposal(`n${i}`));
    expect(() => parseAdmitPayload({ cluster: 'c1', passId: 'e', createdAt: 1, proposals: many })).toThrow(
      /admit payload\.proposals: Too big/,
    );
    // 20 proposals whose replacements each list many long instance-type names: within count, over bytes.
    const long = Array.from({ length: 60 }, (_, i) => `${'x'.repeat(180)}-${i}`);
    const heavy = Array.from({ length: MAX_PROPOSALS }, (_, i) => proposal(`n${i}`, long));
    expect(() =>
      parseAdmitPayload(
        { cluster: 'c1', passId: 'e', createdAt: 1, proposals: heavy },
        'consolidate hand-off',
      ),
    ).toThrow(AdmitPayloadError);
    expect(() => parseAdmitPayload({ cluster: 'c1', passId: 'e', createdAt: 1, proposals: heavy })).toThrow(
      /bytes exceed the 204096-byte bound/,
    );
  });

  it('the hand-off sends one admit invocation with the proposals in order; a bad one sends nothing', async () => {
    const sent: unknown[] = [];
    const invoker = new InProcessInvoker().register('admit', async (p) => void sent.push(p));
    const clock = { now: () => new Date(1_700_000_000_000) };
    await handOffToAdmit(invoker, clock, 'c1', 'evt-9')([proposal('b'), proposal('a')]);
    await invoker.settled();
    expect(sent).toEqual([
      {
        cluster: 'c1',
        passId: 'evt-9',
        createdAt: 1_700_000_000_000,
        proposals: [proposal('b'), proposal('a')],
      },
    ]);
    await expect(handOffToAdmit(invoker, clock, 'c1', 'evt-9')([])).rejects.toThrow(
      /consolidate hand-off\.proposals/,
    );
    await invoker.settled();
    expect(sent).toHaveLength(1);
  });
});

describe('withinInvocation', () => {
  it('keeps the budgets that fit and shrinks them in proportion otherwise', () => {
    const o = passOptions({});
    expect(withinInvocation(o, 10 * 60_000)).toBe(o);
    const cut = withinInvocation(o, 120_000); // 1 min + 3 min into 2 min
    expect([cut.multiNodeTimeoutMs, cut.singleNodeTimeoutMs]).toEqual([30_000, 90_000]);
    expect(withinInvocation(o, 0)).toMatchObject({ multiNodeTimeoutMs: 0, singleNodeTimeoutMs: 0 });
  });
});
