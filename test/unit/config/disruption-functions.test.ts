// The config schemas of orchestrate, census and pricing: defaults as documented in docs/functions/, the GCP
// group all or nothing, and every bad variable named at once.
import { describe, expect, it } from 'vitest';
import { censusConfig } from '../../../shared/config/census.ts';
import { orchestrateConfig } from '../../../shared/config/orchestrate.ts';
import { COMMON_ENV, GCP_ENV, configFailure } from '../../fixtures/config-env.ts';

describe('orchestrate config', () => {
  it('defaults: a 2-minute lease, 15 minutes for replacements, 10 for an admitter to confirm', () => {
    const c = orchestrateConfig(COMMON_ENV);
    expect(c).toMatchObject({
      leaseTtlMs: 120_000,
      replacementTimeoutMs: 900_000,
      admissionGraceMs: 600_000,
      replacementBackoffMs: 300_000,
    });
    expect(c.gce).toBeUndefined();
    expect(c.observability.service).toBe('orchestrate');
    expect(orchestrateConfig({ ...COMMON_ENV, ...GCP_ENV }).gce?.zones).toEqual([
      'us-central1-a',
      'us-central1-b',
    ]);
  });

  it('names every bad variable at once, including a partial GCP group', () => {
    const err = configFailure(() =>
      orchestrateConfig({
        ...COMMON_ENV,
        KRAFTSMAN_REPLACEMENT_TIMEOUT: 'a while',
        KRAFTSMAN_LEASE_TTL: '-',
        KRAFTSMAN_GCP_PROJECT: 'ml-prod',
      }),
    );
    expect(err.keys).toEqual(
      expect.arrayContaining([
        'KRAFTSMAN_REPLACEMENT_TIMEOUT',
        'KRAFTSMAN_LEASE_TTL',
        'KRAFTSMAN_GCP_REGION',
        'KRAFTSMAN_GCP_CREDENTIALS',
      ]),
    );
    expect(err.message).toMatch(/orchestrate function/);
  });
});

describe('census config', () => {
  it('defaults: a five-minute sweep, a lease that outlives it, the pass options consolidate reads', () => {
    const c = censusConfig(COMMON_ENV);
    expect(c).toMatchObject({ sweepBudgetMs: 300_000, leaseTtlMs: 420_000, instanceTypesTtlMs: 300_000 });
    expect(c.options).toMatchObject({ upstream: false, candidateTimeoutMs: 10_000 });
    expect(c.gce).toBeUndefined();
    expect(c.observability.service).toBe('census');
    const tuned = censusConfig({
      ...COMMON_ENV,
      ...GCP_ENV,
      KRAFTSMAN_CENSUS_BUDGET: '90s',
      KRAFTSMAN_UPSTREAM: 'true',
    });
    expect(tuned).toMatchObject({ sweepBudgetMs: 90_000, leaseTtlMs: 210_000, options: { upstream: true } });
    expect(tuned.gce?.project).toBe('ml-prod');
    expect(censusConfig({ ...COMMON_ENV, KRAFTSMAN_LEASE_TTL: '15m' }).leaseTtlMs).toBe(900_000);
  });

  it('names every bad variable at once, including a partial GCP group', () => {
    const err = configFailure(() =>
      censusConfig({
        ...COMMON_ENV,
        KRAFTSMAN_CENSUS_BUDGET: 'five minutes',
        KRAFTSMAN_MAX_COMMANDS: '0',
        KRAFTSMAN_GCP_ZONES: 'us-central1-a',
      }),
    );
    expect(err.keys).toEqual(
      expect.arrayContaining([
        'KRAFTSMAN_CENSUS_BUDGET',
        'KRAFTSMAN_MAX_COMMANDS',
        'KRAFTSMAN_GCP_PROJECT',
        'KRAFTSMAN_GCP_CREDENTIALS',
      ]),
    );
    expect(err.message).toMatch(/census function/);
    expect(err.message).toMatch(/KRAFTSMAN_CENSUS_BUDGET: "five minutes" is not a duration/);
  });
});
