// The replacement-failure backoff's rules (docs/mechanisms/replacement-backoff.md), pure: the hold doubles up
// to 16 × base, the fingerprint is the fork's (instance, NodePool generation, moving pods and their requests;
// pod order does not matter), a held candidate is not replaced but may still be deleted, and a pass that held
// one back does not call the fleet consolidated.
import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import {
  BackoffHolds,
  backoffDurationMs,
  backoffFingerprint,
  candidateBackoffFingerprint,
  recordFailure,
  type BackoffEntry,
} from '../../../shared/disruption/replacement-backoff.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import type { Pod } from '../../../shared/model/pod.ts';
import { names, node, NOW, nodePool, pod, reasonOf, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;
const BASE = 60_000;

/** A pass over `objects` with the named candidates held by a failure recorded just now. */
function passHolding(objects: readonly Obj[], held: readonly string[]) {
  const snapshot = snapshotOf(objects);
  const ctx = passContext(snapshot, NOW, passOptions({}));
  const { candidates } = buildCandidates({ snapshot, pdbs: ctx.pdbs(), now: NOW });
  const entries = new Map<string, BackoffEntry>();
  for (const c of candidates.filter((x) => held.includes(x.name)))
    entries.set(
      c.name,
      recordFailure(
        undefined,
        { candidate: c.name, nodePool: c.nodePool, fingerprint: candidateBackoffFingerprint(c) },
        NOW,
        BASE,
      ),
    );
  const holds = new BackoffHolds(entries, NOW);
  return {
    result: runPass({ snapshot, now: NOW, options: passOptions({}), hints: { replacementHolds: holds } }),
    holds,
  };
}

// Pods pinned to their node's zone: each node can only be replaced (s-16 → a cheaper s-8 in its zone).
const pinned = [
  nodePool('default'),
  node('n1', { type: 's-16', zone: 'us-east-1a' }),
  node('n2', { type: 's-16', zone: 'us-east-1b' }),
  pod('p1', { node: 'n1', cpu: '5', nodeSelector: { 'topology.kubernetes.io/zone': 'us-east-1a' } }),
  pod('p2', { node: 'n2', cpu: '5', nodeSelector: { 'topology.kubernetes.io/zone': 'us-east-1b' } }),
];

describe('replacement backoff', () => {
  it('holds base × 2^(n−1), capped at 16 × base', () => {
    expect([1, 2, 3, 4, 5, 6, 100].map((n) => backoffDurationMs(BASE, n) / BASE)).toEqual([
      1, 2, 4, 8, 16, 16, 16,
    ]);
    const first = recordFailure(undefined, { candidate: 'a', nodePool: 'p', fingerprint: 'f' }, NOW, BASE);
    const second = recordFailure(first, { candidate: 'a', nodePool: 'p', fingerprint: 'f' }, NOW, BASE);
    const changed = recordFailure(second, { candidate: 'a', nodePool: 'p', fingerprint: 'g' }, NOW, BASE);
    expect([first.failures, second.failures, changed.failures]).toEqual([1, 2, 1]);
    expect(second.until.getTime() - NOW.getTime()).toBe(2 * BASE);
    expect(second.expiresAt.getTime() - NOW.getTime()).toBe(32 * BASE);
  });

  it('fingerprints the instance, the NodePool generation and the moving pods with their requests', () => {
    const p = (uid: string, cpu: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: uid, uid },
        spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] },
      }) as Pod;
    const pool = { metadata: { uid: 'pool', generation: 1 } };
    const base = backoffFingerprint({
      providerId: 'aws:///a/i-1',
      nodePool: pool,
      pods: [p('x', '1'), p('y', '2')],
    });
    expect(
      backoffFingerprint({ providerId: 'aws:///a/i-1', nodePool: pool, pods: [p('y', '2'), p('x', '1')] }),
    ).toBe(base);
    for (const other of [
      { providerId: 'aws:///a/i-2', nodePool: pool, pods: [p('x', '1'), p('y', '2')] },
      {
        providerId: 'aws:///a/i-1',
        nodePool: { metadata: { uid: 'pool', generation: 2 } },
        pods: [p('x', '1'), p('y', '2')],
      },
      { providerId: 'aws:///a/i-1', nodePool: pool, pods: [p('x', '1'), p('y', '3')] },
      { providerId: 'aws:///a/i-1', nodePool: pool, pods: [p('x', '1')] },
    ])
      expect(backoffFingerprint(other)).not.toBe(base);
  });

  it('skips a held candidate’s replace, walks on to the next, and does not call the fleet consolidated', () => {
    const { result } = passHolding(pinned, ['n1']);
    expect(names(result)).toEqual([['n2']]);
    expect(reasonOf(result, 'n1')).toBe('replacement-backoff');
    const all = passHolding(pinned, ['n1', 'n2']).result;
    expect(all.commands).toEqual([]);
    expect(all.outcome).toBe('no-proposals');
  });

  it('still deletes a held candidate: a delete launches nothing', () => {
    const fleet = [
      nodePool('default'),
      node('a', { type: 's-8' }),
      pod('a-0', { node: 'a', cpu: '3' }),
      node('b', { type: 's-8' }),
      pod('b-0', { node: 'b', cpu: '3' }),
    ];
    const { result } = passHolding(fleet, ['a', 'b']);
    expect(names(result)).toEqual([['a']]);
    expect(result.commands[0]?.replacements).toEqual([]);
  });

  it('refuses a multi-node replace that would take a held candidate, and falls back to a delete', () => {
    const fleet = [
      nodePool('default'),
      node('a', { type: 's-16' }),
      pod('a-0', { node: 'a', cpu: '3' }),
      node('b', { type: 's-16' }),
      pod('b-0', { node: 'b', cpu: '3' }),
    ];
    const free = passHolding(fleet, []).result;
    expect(free.method).toBe('multi-node-consolidation');
    expect(free.commands[0]?.replacements).toHaveLength(1);
    const held = passHolding(fleet, ['a']).result;
    expect(held.method).toBe('single-node-consolidation');
    expect(held.commands.every((c) => c.replacements.length === 0)).toBe(true);
  });

  it('releases a hold whose candidate changed, and reports it for deletion', () => {
    const snapshot = snapshotOf(pinned);
    const { candidates } = buildCandidates({
      snapshot,
      pdbs: passContext(snapshot, NOW, passOptions({})).pdbs(),
      now: NOW,
    });
    const n1 = candidates.find((c) => c.name === 'n1')!;
    const stale = recordFailure(
      undefined,
      { candidate: 'n1', nodePool: 'default', fingerprint: 'rb1:old' },
      NOW,
      BASE,
    );
    const holds = new BackoffHolds(new Map([['n1', stale]]), NOW);
    expect(holds.held(n1)).toBe(false);
    expect([...holds.released.keys()]).toEqual(['n1']);
    const live = recordFailure(
      undefined,
      { candidate: 'n1', nodePool: 'default', fingerprint: candidateBackoffFingerprint(n1) },
      NOW,
      BASE,
    );
    expect(new BackoffHolds(new Map([['n1', live]]), NOW).held(n1)).toBe(true);
    expect(new BackoffHolds(new Map([['n1', live]]), new Date(NOW.getTime() + BASE)).held(n1)).toBe(false);
  });
});
