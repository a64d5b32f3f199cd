// The crash matrix at the wire: a command's container dies right after (or right before) each of its steps —
// admission's record, taint, replacement claim, launch and mark; orchestration's re-reads of the candidate
// (docs/mechanisms/identity.md, "Commands"), evictions and terminate —
// by a proxy that cuts every socket of that container at that request. The next scheduled invocations
// recover: no stranded taint, no orphan instance or claim, and every pod of the candidate is still on it or
// running on its replacement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startHarness,
  lambdaContext,
  scheduledEvent,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import type { Trigger } from '../../support/e2e/crash-proxy.ts';
import {
  crashableContainer,
  expectNothingLeftBehind,
  initializeNodes,
  openCommands,
  recover,
  underusedNode,
} from '../../support/e2e/disruption-world.ts';
import {
  orchestrateHandler,
  proposalFor,
  startCommandNow,
} from '../../support/e2e/orchestration-handlers.ts';

const transaction = (nth: number, when: Trigger['when']): Trigger => ({
  server: 'dynamodb',
  matches: (r) => r.target === 'TransactWriteItems',
  nth,
  when,
});

/** Admission's steps, in StartCommand's order; each crash leaves a command orchestration must finish or undo. */
const ADMISSION: readonly [string, (candidate: string) => Trigger, 'completed' | 'rolled-back'][] = [
  ['recorded', () => transaction(1, 'after'), 'rolled-back'],
  [
    'tainted',
    (c) => ({
      server: 'kube',
      matches: (r) => r.method === 'PATCH' && r.url.startsWith(`/api/v1/nodes/${c}`),
      when: 'after',
    }),
    'rolled-back',
  ],
  [
    'replacement claim created',
    () => ({
      server: 'kube',
      matches: (r) => r.method === 'POST' && r.url.includes('/nodeclaims'),
      when: 'after',
    }),
    'rolled-back',
  ],
  [
    'the launch recorded (before the launcher is invoked)',
    () => ({
      server: 'dynamodb',
      matches: (r) => r.target === 'PutItem' && r.body.includes('#LAUNCH'),
      when: 'after',
    }),
    'rolled-back',
  ],
  ['launched (dies before the mark)', () => transaction(2, 'before'), 'rolled-back'],
  ['marked for deletion (the answer is lost)', () => transaction(2, 'after'), 'completed'],
];

const eviction = (nth: number): Trigger => ({
  server: 'kube',
  matches: (r) => r.method === 'POST' && r.url.endsWith('/eviction'),
  nth,
  when: 'after',
});
/** The direct GET that re-reads the candidate right before its evictions (1st) or its terminate (2nd). */
const reread =
  (nth: number) =>
  (candidate: string): Trigger => ({
    server: 'kube',
    matches: (r) => r.method === 'GET' && r.url.split('?')[0] === `/api/v1/nodes/${candidate}`,
    nth,
    when: 'after',
  });
const ORCHESTRATION: readonly [string, (candidate: string) => Trigger][] = [
  ['the candidate re-read before its evictions', reread(1)],
  ['the first eviction', () => eviction(1)],
  ['the second eviction', () => eviction(2)],
  ['the candidate re-read before its terminate', reread(2)],
  [
    'the instance terminated',
    () => ({ server: 'ec2', matches: (r) => r.body.includes('Action=TerminateInstances'), when: 'after' }),
  ],
];

describe('a crash after each step of a command recovers on the next invocations', () => {
  let h: E2eHarness;
  let cases = 0;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'crash' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(ADMISSION)('admission dies once %s', async (_step, trigger, outcome) => {
    const s = await underusedNode(h, `adm${++cases}`);
    const proposal = await proposalFor(h, s.candidate);
    const box = await crashableContainer(h);
    box.wire.arm(trigger(s.candidate));
    await expect(startCommandNow(h, proposal, { store: box.store, cluster: box.cluster })).rejects.toThrow();
    expect(box.wire.crashed).toBe(true);
    await box.close();
    await recover(h);
    expect(await expectNothingLeftBehind(h, s)).toBe(outcome);
  });

  it.each(ORCHESTRATION)('orchestration dies right after %s', async (_step, trigger) => {
    const s = await underusedNode(h, `orch${++cases}`);
    await startCommandNow(h, await proposalFor(h, s.candidate));
    await initializeNodes(h); // the replacement registers and initializes
    const box = await crashableContainer(h);
    box.wire.arm(trigger(s.candidate));
    const crashing = orchestrateHandler(h, {
      cluster: box.cluster,
      store: box.store,
      providers: { aws: box.ec2 },
    });
    for (let i = 0; i < 4 && !box.wire.crashed; i++) {
      await crashing(scheduledEvent(h.clock), lambdaContext('orchestrate')).catch(() => undefined);
      h.kube.terminatePods();
      h.bind();
    }
    expect(box.wire.crashed).toBe(true);
    await box.close();
    expect(await openCommands(h)).toHaveLength(1);
    await recover(h);
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
  });
});
