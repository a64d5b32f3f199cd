// What the store's nominations keep out of a disruption pass (shared/loop/command-exclusions.ts): a node nominated
// for a pending pod is not a candidate, as Karpenter's StateNode.Nominated(); once that pod is bound, deleted or
// finished the node is judged again, though the store still holds the nomination until its TTL.
import { describe, expect, it } from 'vitest';
import { commandExclusions } from '../../../shared/loop/command-exclusions.ts';
import type { Nomination } from '../../../shared/ports/state-store/records.ts';
import { node, pod, snapshotOf } from '../disruption/fixtures.ts';

const nomination = (podKey: string, nodeName: string): [string, Nomination] => [
  podKey,
  { podKey, nodeName, expiresAt: new Date('2026-09-01T12:25:00Z') },
];

const excluded = (objects: ReturnType<typeof pod>[], nominations: [string, Nomination][]) =>
  commandExclusions(
    { openCommands: [], nominations: new Map(nominations) },
    snapshotOf([node('a'), node('b'), node('c'), ...objects]),
  ).nominated;

describe('nominations in a disruption pass', () => {
  it('keep a node out while the pod nominated to it is still pending', () => {
    expect([...excluded([pod('w')], [nomination('default/w', 'a')])]).toEqual(['a']);
  });

  it('no longer hold a node once the pod is bound there, or elsewhere', () => {
    const pods = [pod('here', { node: 'a' }), pod('there', { node: 'c' })];
    const noms = [nomination('default/here', 'a'), nomination('default/there', 'b')];
    expect([...excluded(pods, noms)]).toEqual([]);
  });

  it('no longer hold a node once the pod is gone or finished', () => {
    const done = pod('done');
    (done.status as { phase: string }).phase = 'Succeeded';
    const noms = [nomination('default/gone', 'a'), nomination('default/done', 'b')];
    expect([...excluded([done], noms)]).toEqual([]);
  });
});
