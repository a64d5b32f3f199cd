// Karpenter's drain order: non-critical before critical, DaemonSet pods last; pods that need no eviction
// (static, terminal, tolerating the disrupted taint) are left alone; do-not-disrupt holds until the grace period.
import { describe, expect, it } from 'vitest';
import { drainPlan } from '../../../shared/disruption/drain-order.ts';
import { podSchema, type Pod } from '../../../shared/model/pod.ts';
import { NOW, pod } from './fixtures.ts';

const parsed = (o: Record<string, unknown>): Pod => podSchema.parse(o);
const withSpec = (o: Record<string, unknown>, spec: Record<string, unknown>) =>
  parsed({ ...o, spec: { ...(o.spec as object), ...spec } });
const names = (ps: readonly Pod[]) => ps.map((p) => p.metadata.name).sort();

const app = parsed(pod('app', { node: 'n' }));
const critical = withSpec(pod('dns', { node: 'n' }), { priorityClassName: 'system-cluster-critical' });
const daemon = parsed(pod('agent', { node: 'n', daemon: true }));
const tolerant = parsed(pod('tolerant', { node: 'n', tolerations: [{ operator: 'Exists' }] }));
const guarded = parsed(pod('guarded', { node: 'n', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }));

describe('drainPlan', () => {
  it('evicts non-critical pods first, then critical ones, then DaemonSet pods', () => {
    expect(names(drainPlan([app, critical, daemon], NOW, false).evict)).toEqual(['app']);
    expect(names(drainPlan([critical, daemon], NOW, false).evict)).toEqual(['dns']);
    expect(names(drainPlan([daemon], NOW, false).evict)).toEqual(['agent']);
    expect(drainPlan([], NOW, false).drained).toBe(true);
  });

  it('leaves pods that tolerate the disrupted taint alone', () => {
    expect(drainPlan([tolerant], NOW, false)).toMatchObject({ evict: [], drained: true });
  });

  it('waits on a do-not-disrupt pod until the termination grace period has passed', () => {
    expect(drainPlan([guarded], NOW, false)).toMatchObject({ evict: [], drained: false });
    expect(names(drainPlan([guarded], NOW, true).evict)).toEqual(['guarded']);
  });
});
