// The consolidate and admit config schemas: defaults follow Karpenter (1 min multi-node, 3 min single-node,
// 10 s per candidate, 15 s settling), both read the same pass keys, and every bad variable is named at once.
import { describe, expect, it } from 'vitest';
import { admitConfig, ADMIT_RESERVED_CONCURRENCY } from '../../../shared/config/admit.ts';
import { consolidateConfig } from '../../../shared/config/consolidate.ts';
import { DEFAULT_OPTIONS } from '../../../shared/disruption/types.ts';
import { COMMON_ENV, LAUNCHER_ENV, configFailure } from '../../fixtures/config-env.ts';

describe('consolidate and admit config', () => {
  it('consolidate: Karpenter’s walk budgets by default, the lease from them, admit as the target', () => {
    const c = consolidateConfig({ ...COMMON_ENV, KRAFTSMAN_ADMIT_FUNCTION: 'kraftsman-admit' });
    expect(c.options).toEqual(DEFAULT_OPTIONS);
    expect(c.leaseTtlMs).toBeUndefined();
    expect(c.invoker.functions).toEqual({ admit: 'kraftsman-admit' });
  });

  it('consolidate: overrides parse, and upstream mode holds one command whatever the setting', () => {
    const c = consolidateConfig({
      ...COMMON_ENV,
      KRAFTSMAN_ADMIT_FUNCTION: 'a',
      KRAFTSMAN_MULTI_NODE_TIMEOUT: '30s',
      KRAFTSMAN_MAX_COMMANDS: '5',
      KRAFTSMAN_LEASE_TTL: '10m',
    });
    expect(c.options).toMatchObject({ multiNodeTimeoutMs: 30_000, maxCommands: 5 });
    expect(c.leaseTtlMs).toBe(600_000);
    const up = consolidateConfig({
      ...COMMON_ENV,
      KRAFTSMAN_ADMIT_FUNCTION: 'a',
      KRAFTSMAN_MAX_COMMANDS: '5',
      KRAFTSMAN_UPSTREAM: 'true',
    });
    expect(up.options).toMatchObject({ upstream: true, maxCommands: 1, attributeReplacements: false });
  });

  it('consolidate: the sync gate policy, Strict by default (and in upstream mode); a bad one is named', () => {
    const env = { ...COMMON_ENV, KRAFTSMAN_ADMIT_FUNCTION: 'a' };
    expect(consolidateConfig(env).options.syncPolicy).toBe('Strict');
    const loose = { ...env, KRAFTSMAN_DISRUPTION_SYNC_POLICY: 'IgnoreNonReplacements' };
    expect(consolidateConfig(loose).options.syncPolicy).toBe('IgnoreNonReplacements');
    expect(consolidateConfig({ ...loose, KRAFTSMAN_UPSTREAM: 'true' }).options.syncPolicy).toBe('Strict');
    const err = configFailure(() =>
      consolidateConfig({ ...env, KRAFTSMAN_DISRUPTION_SYNC_POLICY: 'Lenient' }),
    );
    expect(err.message).toContain('KRAFTSMAN_DISRUPTION_SYNC_POLICY');
  });

  it('admit: 15 s settling, a 2-minute lock wait, the launchers, reserved concurrency 1', () => {
    const c = admitConfig({ ...COMMON_ENV, ...LAUNCHER_ENV });
    expect(c).toMatchObject({ settlingDelayMs: 15_000, lockWaitMs: 120_000, lockPollMs: 1_000 });
    expect(c.options).toEqual(DEFAULT_OPTIONS);
    expect(c.invoker.functions).toEqual({
      'launch-aws': 'kraftsman-launch-aws',
      'launch-gcp': 'kraftsman-launch-gcp',
    });
    expect(ADMIT_RESERVED_CONCURRENCY).toBe(1);
  });

  it('names every bad variable at once', () => {
    const e = configFailure(() =>
      consolidateConfig({ ...COMMON_ENV, KRAFTSMAN_MAX_COMMANDS: '50', KRAFTSMAN_CANDIDATE_TIMEOUT: 'soon' }),
    );
    expect(e.keys).toEqual(
      expect.arrayContaining([
        'KRAFTSMAN_ADMIT_FUNCTION',
        'KRAFTSMAN_MAX_COMMANDS',
        'KRAFTSMAN_CANDIDATE_TIMEOUT',
      ]),
    );
    expect(e.message).toMatch(/"50" is not a whole number from 1 to 20/);
    const a = configFailure(() =>
      admitConfig({ ...COMMON_ENV, KRAFTSMAN_SETTLING_DELAY: '15', ...LAUNCHER_ENV }),
    );
    expect(a.message).toMatch(/KRAFTSMAN_SETTLING_DELAY: "15" is not a duration/);
  });
});
