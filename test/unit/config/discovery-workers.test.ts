// The consolidate function's discovery workers (docs/mechanisms/parallel-discovery.md, "In Lambda"): sized to the
// vCPUs Lambda gives the function's memory (1,769 MB each, at most 6) unless KRAFTSMAN_DISCOVERY_WORKERS says,
// and a bad value is named.
import { describe, expect, it } from 'vitest';
import { consolidateConfig } from '../../../shared/config/consolidate.ts';
import { vcpusForMemory } from '../../../shared/config/discovery-workers.ts';
import { COMMON_ENV, configFailure } from '../../fixtures/config-env.ts';

const env = { ...COMMON_ENV, KRAFTSMAN_ADMIT_FUNCTION: 'a' };

describe('discovery workers setting', () => {
  it('is the vCPUs of the memory: 1 up to 2,653 MB, 2 at 3,008 MB, 6 at 10,240 MB', () => {
    expect([128, 1024, 1769, 2653, 2654, 3008, 3538, 5307, 7076, 8845, 10240].map(vcpusForMemory)).toEqual([
      1, 1, 1, 1, 2, 2, 2, 3, 4, 5, 6,
    ]);
  });

  it('defaults to the function memory Lambda sets, to 1 outside Lambda, and an explicit value wins', () => {
    expect(consolidateConfig(env).discoveryWorkers).toBe(1);
    expect(consolidateConfig({ ...env, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' }).discoveryWorkers).toBe(2);
    expect(consolidateConfig({ ...env, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240' }).discoveryWorkers).toBe(6);
    const set = { ...env, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240', KRAFTSMAN_DISCOVERY_WORKERS: '1' };
    expect(consolidateConfig(set).discoveryWorkers).toBe(1);
  });

  it('names a bad value', () => {
    for (const [value, says] of [
      ['0', 'at least 1'],
      ['two', 'whole number'],
      ['1.5', 'whole number'],
      ['65', 'at most 64'],
    ] as const) {
      const failure = configFailure(() => consolidateConfig({ ...env, KRAFTSMAN_DISCOVERY_WORKERS: value }));
      expect(failure.keys).toEqual(['KRAFTSMAN_DISCOVERY_WORKERS']);
      expect(failure.message).toContain(says);
    }
  });
});
