// Batched admission when the open-commands read lags (docs/mechanisms/batched-admission.md, "When reads lag"):
// the admit handler against DynamoDB Local and the Kubernetes emulator, its store wrapped so that the
// commands-by-status GSI answers as of two command writes ago (test/support/dynamodb/lagging-index.ts), as an
// eventually consistent GSI may. A NodePool with a disruption budget of 1 and empty nodes: two proposals for
// the one free slot admit one, within one invocation (the first command carried forward) and across two
// (the second finds the first through consistent reads); a proposal starts only with its 20 s left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmitOutcome } from '../../../functions/admit/handler.ts';
import { createAdmitHandler } from '../../../functions/admit/handler.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import { laggingIndex, type LaggingIndex } from '../../support/dynamodb/lagging-index.ts';
import {
  admitDepsFor,
  deleteProposal,
  emptyNode,
  withBudget,
} from '../../support/e2e/disruption-handlers.ts';
import { lambdaContext, nodePool, startHarness, type E2eHarness } from '../../support/e2e/index.ts';

const SETTLING_MS = 15_000;

describe('admit when the open-commands index lags', () => {
  let h: E2eHarness;
  let round = 0;
  beforeAll(async () => {
    h = await startHarness({
      objects: [withBudget(nodePool('one', 'aws', { instanceTypes: ['g5.xlarge'] }), '1')],
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const tainted = () =>
    h
      .list('Node')
      .filter((n) =>
        ((n.spec as { taints?: { key: string }[] }).taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY),
      )
      .map((n) => n.metadata.name)
      .sort();

  /** Fresh empty nodes of pool `one`, past consolidateAfter; the previous round's nodes and commands gone. */
  async function freshNodes(count: number): Promise<string[]> {
    const store = h.store();
    for (const c of await store.listCommandsByStatus(h.clusterName, 'launching')) {
      await store.transitionCommand(h.clusterName, c.id, 'launching', 'draining');
      await store.transitionCommand(h.clusterName, c.id, 'draining', 'completed');
    }
    for (const n of h.list('Node'))
      h.kube.store.delete(h.kube.typeOf('Node'), undefined, String(n.metadata.name));
    const r = round++;
    const names = Array.from({ length: count }, (_, i) => `lag${r}-n${i}`);
    h.seed(names.map((n) => emptyNode(n, 'one')));
    h.clock.advance(60_000);
    return names;
  }

  /** An admit container whose store's index trails by two command writes (one admitted command). */
  function admitter(lagging: LaggingIndex, wrap: (s: StateStore) => StateStore = (s) => s) {
    const deps = admitDepsFor(h, { settlingDelayMs: SETTLING_MS });
    return createAdmitHandler(() =>
      Promise.resolve({ ...deps, loop: { ...deps.loop, store: wrap(lagging.store) } }),
    );
  }

  const payload = (nodes: readonly string[]) => ({
    cluster: h.clusterName,
    passId: `lag-${round}`,
    createdAt: h.clock.now().getTime(),
    proposals: nodes.map((n) => deleteProposal(n)),
  });

  it('two proposals for the one free slot in one invocation: the second is refused on budget', async () => {
    const [a, b] = await freshNodes(2);
    const lagging = laggingIndex(h.store(), { writes: 2 });
    const out: AdmitOutcome = await admitter(lagging)(payload([a!, b!]), lambdaContext('admit'));
    expect(out).toMatchObject({
      outcome: 'ran',
      rejected: [{ candidates: [b], stage: 'budget' }],
      expired: 0,
    });
    expect(out.outcome === 'ran' && out.admitted).toHaveLength(1);
    expect(tainted()).toEqual([a]);
    // The lag was served: the second validation's index read did not show the first command.
    expect(lagging.staleReads()).toBeGreaterThan(0);
  });

  it('a later invocation on the lagging index: the slot taken and the candidate claimed are read consistently', async () => {
    const [a, b] = await freshNodes(2);
    const lagging = laggingIndex(h.store(), { writes: 2 });
    const first = await admitter(lagging)(payload([a!]), lambdaContext('admit'));
    expect(first).toMatchObject({ outcome: 'ran', rejected: [] });
    // The same container's store: its index still answers as of before the first command was recorded.
    const second = await admitter(lagging)(payload([a!, b!]), lambdaContext('admit'));
    expect(second).toEqual({
      outcome: 'ran',
      admitted: [],
      rejected: [
        { candidates: [a], stage: 'validation' }, // already a candidate of the open command
        { candidates: [b], stage: 'budget' }, // the pool's one slot is that command's
      ],
      expired: 0,
    });
    expect(tainted()).toEqual([a]);
    const open = await h.store().listCommandsByStatus(h.clusterName, 'launching');
    expect(open.map((c) => c.candidates)).toEqual([[a]]);
  });

  it('a later proposal starts only with a proposal’s 20 s of the admission budget left', async () => {
    const [a, b] = await freshNodes(2);
    const lagging = laggingIndex(h.store(), { writes: 2 });
    // Recording a command takes 15 s of the invocation; the invocation leaves settling + 30 s of budget.
    const slow = (s: StateStore): StateStore =>
      new Proxy(s, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key === 'admitCommand')
            return async (...args: Parameters<StateStore['admitCommand']>) => {
              h.clock.advance(15_000);
              return target.admitCommand(...args);
            };
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    const context = { ...lambdaContext('admit'), getRemainingTimeInMillis: () => SETTLING_MS + 60_000 };
    const out = await admitter(lagging, slow)(payload([a!, b!]), context);
    // 15 s of the 30 s left after settling went to the first proposal: the second is not started.
    expect(out).toMatchObject({ outcome: 'ran', rejected: [], expired: 1 });
    expect(tainted()).toEqual([a]);
  });
});
