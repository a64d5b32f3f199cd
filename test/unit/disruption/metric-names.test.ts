// Metric names: Karpenter's exact names, kraftsman's prefix, the skip-reason vocabulary and label mappings.
import { describe, expect, it } from 'vitest';
import {
  CONSOLIDATION_TYPE,
  KARPENTER_METRICS,
  KRAFTSMAN_METRICS,
  NO_OP_REASONS,
  reasonLabel,
  SKIP_REASONS,
  STAGE_LABELS,
  STAGES,
  WALK_SKIP_REASONS,
} from '../../../shared/disruption/metric-names.ts';
import { SKIP_REASONS as ENGINE_SKIP_REASONS } from '../../../shared/disruption/types.ts';

const PROMETHEUS_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

describe('metric names', () => {
  it("keeps Karpenter's names so upstream dashboards work", () => {
    expect(Object.values(KARPENTER_METRICS)).toEqual(
      expect.arrayContaining([
        'karpenter_voluntary_disruption_decisions_total',
        'karpenter_voluntary_disruption_eligible_nodes',
        'karpenter_voluntary_disruption_consolidation_timeouts_total',
        'karpenter_voluntary_disruption_decision_evaluation_duration_seconds',
        'karpenter_nodepools_allowed_disruptions',
      ]),
    );
  });

  it('names every metric validly and uniquely, kraftsman ones under kraftsman_', () => {
    const all = [...Object.values(KARPENTER_METRICS), ...Object.values(KRAFTSMAN_METRICS)];
    for (const n of all) expect(n).toMatch(PROMETHEUS_NAME);
    expect(new Set(all).size).toBe(all.length);
    for (const n of Object.values(KRAFTSMAN_METRICS)) expect(n.startsWith('kraftsman_')).toBe(true);
  });
});

describe('label vocabularies', () => {
  it("is the engine's skip-reason vocabulary, with the fork's walk reasons and Karpenter's no-op reasons in it", () => {
    expect(SKIP_REASONS).toBe(ENGINE_SKIP_REASONS);
    for (const r of [...WALK_SKIP_REASONS, ...NO_OP_REASONS]) expect(SKIP_REASONS).toContain(r);
    expect(new Set(SKIP_REASONS).size).toBe(SKIP_REASONS.length);
  });

  it('labels every engine stage with an underscore name', () => {
    expect(STAGES.map((s) => STAGE_LABELS[s])).toEqual([
      'state_copy',
      'pod_gather',
      'construction',
      'simulation',
    ]);
  });

  it("uses Karpenter's consolidation_type and lower-case reason labels", () => {
    expect(CONSOLIDATION_TYPE['single-node-consolidation']).toBe('single');
    expect(CONSOLIDATION_TYPE['multi-node-consolidation']).toBe('multi');
    expect(CONSOLIDATION_TYPE.emptiness).toBe('empty');
    expect(CONSOLIDATION_TYPE.drift).toBe('');
    expect(reasonLabel('Underutilized')).toBe('underutilized');
  });
});
