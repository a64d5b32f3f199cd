// A scenario's deployment parameters (local/fleet/wiring-parameters.ts) reach the functions as a deploy's
// `--param` does: the same variable serverless.yml sets from each, parsed by the functions' own config; upstream
// mode still forces Karpenter's one command per pass and no skipping (docs/mechanisms/batched-admission.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consolidateConfig } from '../../../shared/config/consolidate.ts';
import {
  DEPLOY_PARAMETERS,
  parameterEnv,
  type DeployParameters,
} from '../../../local/fleet/wiring-parameters.ts';
import { COMMON_ENV } from '../../fixtures/config-env.ts';

const consolidate = (p: DeployParameters, upstream = false) =>
  consolidateConfig({
    ...COMMON_ENV,
    KRAFTSMAN_ADMIT_FUNCTION: 'kraftsman-admit',
    KRAFTSMAN_UPSTREAM: String(upstream),
    ...parameterEnv(p),
  }).options;

describe('a scenario’s deployment parameters', () => {
  it('set the variable serverless.yml sets from the same --param', () => {
    const yml = readFileSync(new URL('../../../serverless.yml', import.meta.url), 'utf8');
    for (const [name, key] of Object.entries(DEPLOY_PARAMETERS))
      expect(yml, `${key} from --param ${name}`).toContain(`${key}: \${param:${name}, null}`);
  });

  it('turn batched admission and skipping on in kraftsman mode', () => {
    const o = consolidate({ maxCommands: '5', skipUnchangedNegatives: 'true' });
    expect(o.maxCommands).toBe(5);
    expect(o.skipUnchangedNegatives).toBe(true);
  });

  it('change nothing in upstream mode, which forces Karpenter’s behaviour', () => {
    const o = consolidate({ maxCommands: '5', skipUnchangedNegatives: 'true' }, true);
    expect(o.maxCommands).toBe(1);
    expect(o.skipUnchangedNegatives).toBe(false);
  });

  it('set the walk budgets in both modes (upstream keeps them: a deployment setting, not a fork difference)', () => {
    for (const upstream of [false, true]) {
      const o = consolidate({ singleNodeTimeout: '400ms', multiNodeTimeout: '150ms' }, upstream);
      expect(o.singleNodeTimeoutMs).toBe(400);
      expect(o.multiNodeTimeoutMs).toBe(150);
    }
    expect(() => consolidate({ singleNodeTimeout: 'soon' })).toThrow(/KRAFTSMAN_SINGLE_NODE_TIMEOUT/);
  });

  it('leave the defaults when unset', () => {
    expect(parameterEnv({})).toEqual({});
    expect(consolidate({}).maxCommands).toBe(1);
  });

  it('name a parameter serverless.yml does not read', () => {
    const bad = { maxComands: '5' } as unknown as DeployParameters;
    expect(() => parameterEnv(bad)).toThrow(/"maxComands" is not one serverless.yml reads/);
  });

  it('leave a bad value to the function’s config, which names its variable', () => {
    expect(() => consolidate({ maxCommands: '50' })).toThrow(/KRAFTSMAN_MAX_COMMANDS/);
  });
});
