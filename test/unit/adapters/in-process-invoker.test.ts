// The in-process Invoker behaves like Lambda's Event invocation: later, on a JSON copy, retried twice.
import { describe, expect, it } from 'vitest';
import { InProcessInvoker } from '../../../shared/adapters/memory/invoker.ts';
import { InvokeError } from '../../../shared/ports/invoker.ts';

describe('InProcessInvoker', () => {
  it('runs the target after invoke returns, on a copy of the payload', async () => {
    const invoker = new InProcessInvoker();
    const seen: unknown[] = [];
    invoker.register('launch-aws', async (p) => void seen.push(p));
    const payload = { claim: 'a' };
    await invoker.invoke('launch-aws', payload);
    expect(seen).toEqual([]);
    payload.claim = 'changed';
    await invoker.settled();
    expect(seen).toEqual([{ claim: 'a' }]);
  });

  it('retries a failing target up to three attempts and records the failure', async () => {
    const invoker = new InProcessInvoker();
    let attempts = 0;
    invoker.register('launch-gcp', async () => {
      attempts += 1;
      throw new Error('no capacity');
    });
    await invoker.invoke('launch-gcp', {});
    await invoker.settled();
    expect(attempts).toBe(3);
    expect(invoker.records).toEqual([
      { target: 'launch-gcp', payload: {}, attempts: 3, outcome: 'failed', error: 'Error: no capacity' },
    ]);
  });

  it('waits for invocations the targets make themselves', async () => {
    const invoker = new InProcessInvoker();
    const order: string[] = [];
    invoker.register('admit', async () => {
      order.push('admit');
      await invoker.invoke('launch-aws', {});
    });
    invoker.register('launch-aws', async () => void order.push('launch'));
    await invoker.invoke('admit', {});
    await invoker.settled();
    expect(order).toEqual(['admit', 'launch']);
  });

  it('refuses a target nobody registered', async () => {
    await expect(new InProcessInvoker().invoke('admit', {})).rejects.toBeInstanceOf(InvokeError);
  });

  it('serial: runs one invocation at a time, in the order they were made, those made by a target last', async () => {
    const invoker = new InProcessInvoker(3, true);
    const log: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name} end`);
    };
    invoker.register('launch-aws', slow('aws', 20));
    invoker.register('launch-gcp', slow('gcp', 1));
    invoker.register('admit', async () => {
      log.push('admit');
      await invoker.invoke('launch-gcp', {});
    });
    await invoker.invoke('launch-aws', {});
    await invoker.invoke('admit', {});
    await invoker.invoke('launch-gcp', {});
    await invoker.settled();
    expect(log).toEqual(['aws start', 'aws end', 'admit', 'gcp start', 'gcp end', 'gcp start', 'gcp end']);
  });
});
