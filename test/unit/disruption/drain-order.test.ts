// Karpenter's drain order (terminator.Evict): non-critical before critical, and within each the DaemonSet pods
// after the others; pods that need no eviction (static, terminal, tolerating the disrupted taint) are left
// alone; do-not-disrupt holds until the grace period; terminating pods hold the drain until a minute past
// their deletionTimestamp (IsStuckTerminating).
import { describe, expect, it } from 'vitest';
import { drainPlan } from '../../../shared/disruption/drain-order.ts';
import { podSchema, type Pod } from '../../../shared/model/pod.ts';
import { NOW, pod } from './fixtures.ts';

const parsed = (o: Record<string, unknown>): Pod => podSchema.parse(o);
const withSpec = (o: Record<string, unknown>, spec: Record<string, unknown>) =>
  parsed({ ...o, spec: { ...(o.spec as object), ...spec } });
const withMeta = (o: Record<string, unknown>, meta: Record<string, unknown>) =>
  parsed({ ...o, metadata: { ...(o.metadata as object), ...meta } });
const withPhase = (o: Record<string, unknown>, phase: string) =>
  parsed({ ...o, status: { ...(o.status as object), phase } });
const names = (ps: readonly Pod[]) => ps.map((p) => p.metadata.name).sort();
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const tolerating = (name: string, tolerations: Record<string, unknown>[]) =>
  parsed(pod(name, { node: 'n', tolerations }));

const app = parsed(pod('app', { node: 'n' }));
const web = parsed(pod('web', { node: 'n' }));
const critical = withSpec(pod('dns', { node: 'n' }), { priorityClassName: 'system-cluster-critical' });
const nodeCritical = withSpec(pod('csi', { node: 'n' }), { priorityClassName: 'system-node-critical' });
const daemon = parsed(pod('agent', { node: 'n', daemon: true }));
const criticalDaemon = withSpec(pod('proxy', { node: 'n', daemon: true }), {
  priorityClassName: 'system-node-critical',
});
const tolerant = tolerating('tolerant', [{ operator: 'Exists' }]);
const guarded = parsed(pod('guarded', { node: 'n', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }));
const staticPod = withMeta(pod('mirror', { node: 'n' }), {
  ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'node-uid', controller: true }],
});

describe('drainPlan', () => {
  it('evicts non-critical pods, then non-critical DaemonSet pods, then critical pods, then critical DaemonSet pods', () => {
    const all = [criticalDaemon, critical, daemon, app];
    expect(names(drainPlan(all, NOW, false).evict)).toEqual(['app']);
    expect(names(drainPlan([criticalDaemon, critical, daemon], NOW, false).evict)).toEqual(['agent']);
    expect(names(drainPlan([criticalDaemon, critical], NOW, false).evict)).toEqual(['dns']);
    expect(names(drainPlan([criticalDaemon], NOW, false).evict)).toEqual(['proxy']);
    expect(drainPlan([], NOW, false)).toEqual({ evict: [], waitingOnDoNotDisrupt: [], drained: true });
  });

  it('evicts a whole group at once, and a node with pods to evict is not drained', () => {
    expect(names(drainPlan([app, critical, web], NOW, false).evict)).toEqual(['app', 'web']);
    expect(drainPlan([app], NOW, false).drained).toBe(false);
  });

  it('counts both system-cluster-critical and system-node-critical as critical, and no other class', () => {
    const high = withSpec(pod('batch', { node: 'n' }), { priorityClassName: 'high-priority' });
    expect(names(drainPlan([nodeCritical, critical, high], NOW, false).evict)).toEqual(['batch']);
    expect(names(drainPlan([nodeCritical, critical], NOW, false).evict)).toEqual(['csi', 'dns']);
  });

  it('leaves static, terminal and disrupted-tolerating pods alone, and they do not hold the drain', () => {
    const done = withPhase(pod('done', { node: 'n' }), 'Succeeded');
    const failed = withPhase(pod('failed', { node: 'n' }), 'Failed');
    for (const p of [staticPod, done, failed, tolerant])
      expect(drainPlan([p], NOW, false), p.metadata.name).toEqual({
        evict: [],
        waitingOnDoNotDisrupt: [],
        drained: true,
      });
    expect(names(drainPlan([staticPod, done, tolerant, daemon], NOW, false).evict)).toEqual(['agent']);
  });

  it('leaves a pod alone only when it tolerates the disrupted NoSchedule taint itself', () => {
    const byKey = tolerating('by-key', [{ key: 'karpenter.sh/disrupted', operator: 'Exists' }]);
    const byKeyNoSchedule = tolerating('by-key-effect', [
      { key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    const byEqualEmpty = tolerating('by-equal', [{ key: 'karpenter.sh/disrupted', operator: 'Equal' }]);
    expect(drainPlan([byKey, byKeyNoSchedule, byEqualEmpty], NOW, false).drained).toBe(true);
    const otherEffect = tolerating('no-execute', [{ key: 'karpenter.sh/disrupted', effect: 'NoExecute' }]);
    const everythingNoExecute = tolerating('all-no-execute', [{ operator: 'Exists', effect: 'NoExecute' }]);
    const otherValue = tolerating('valued', [{ key: 'karpenter.sh/disrupted', value: 'x' }]);
    const otherKey = tolerating('other', [{ key: 'example.com/gpu', operator: 'Exists' }]);
    expect(
      names(drainPlan([otherEffect, everythingNoExecute, otherValue, otherKey], NOW, false).evict),
    ).toEqual(['all-no-execute', 'no-execute', 'other', 'valued']);
  });

  it('waits on a do-not-disrupt pod until the termination grace period has passed', () => {
    expect(drainPlan([guarded], NOW, false)).toMatchObject({ evict: [], drained: false });
    expect(names(drainPlan([guarded], NOW, false).waitingOnDoNotDisrupt)).toEqual(['guarded']);
    expect(drainPlan([guarded], NOW, true)).toMatchObject({ waitingOnDoNotDisrupt: [], drained: false });
    expect(names(drainPlan([guarded], NOW, true).evict)).toEqual(['guarded']);
  });

  it('holds the next group behind a do-not-disrupt pod, which it never evicts before the grace period', () => {
    // Karpenter v1.14's Drain groups every pod waiting eviction, do-not-disrupt ones included, and evicts only
    // the first group that has one: the DaemonSet pod waits ("node drain should stall until these pods are
    // evicted or become terminal", IsDrainable).
    const plan = drainPlan([guarded, daemon], NOW, false);
    expect(plan.evict).toEqual([]);
    expect(names(plan.waitingOnDoNotDisrupt)).toEqual(['guarded']);
    expect(names(drainPlan([guarded, daemon], NOW, true).evict)).toEqual(['guarded']);
    // One already leaving (deleted by someone else) is waited for as a terminating pod, not as a held one.
    const leaving = withMeta(
      pod('leaving', { node: 'n', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
      {
        deletionTimestamp: ago(0),
      },
    );
    expect(drainPlan([leaving, daemon], NOW, false)).toEqual({
      evict: [],
      waitingOnDoNotDisrupt: [],
      drained: false,
    });
  });

  it('lets a do-not-disrupt duration that has run out through, and holds for one still running', () => {
    const annotated = (name: string, value: string) =>
      parsed(
        pod(name, {
          node: 'n',
          annotations: { 'karpenter.sh/do-not-disrupt': value },
          startTime: ago(3_600_000),
        }),
      );
    expect(names(drainPlan([annotated('over', '30m')], NOW, false).evict)).toEqual(['over']);
    const held = drainPlan([annotated('held', '2h')], NOW, false);
    expect(held.evict).toEqual([]);
    expect(names(held.waitingOnDoNotDisrupt)).toEqual(['held']);
  });

  it('holds the drain for a terminating pod without evicting it again, until it is stuck a minute past its deletion time', () => {
    const terminating = (name: string, msAgo: number, extra: Record<string, unknown> = {}) =>
      withMeta(pod(name, { node: 'n', ...extra }), { deletionTimestamp: ago(msAgo) });
    const leaving = terminating('leaving', 0);
    expect(drainPlan([leaving], NOW, false)).toEqual({
      evict: [],
      waitingOnDoNotDisrupt: [],
      drained: false,
    });
    // Its group is not gone yet: the next one waits (Karpenter's "wait until pods are fully deleted").
    expect(drainPlan([leaving, daemon], NOW, false)).toMatchObject({ evict: [], drained: false });
    expect(names(drainPlan([terminating('stuck', 60_001), daemon], NOW, false).evict)).toEqual(['agent']);
    expect(names(drainPlan([leaving, app], NOW, false).evict)).toEqual(['app']);
    expect(drainPlan([terminating('minute', 60_000)], NOW, false).drained).toBe(false);
    expect(drainPlan([terminating('stuck', 60_001)], NOW, false).drained).toBe(true);
    const finished = withPhase(pod('finished', { node: 'n' }), 'Succeeded');
    const finishedLeaving = parsed({
      ...finished,
      metadata: { ...finished.metadata, deletionTimestamp: ago(0) },
    });
    expect(drainPlan([finishedLeaving], NOW, false).drained).toBe(true);
    const staticLeaving = parsed({
      ...staticPod,
      metadata: { ...staticPod.metadata, deletionTimestamp: ago(0) },
    });
    const tolerantLeaving = terminating('tolerant-leaving', 0, { tolerations: [{ operator: 'Exists' }] });
    expect(drainPlan([staticLeaving, tolerantLeaving], NOW, false).drained).toBe(true);
  });
});
