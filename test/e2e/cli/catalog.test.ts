// `kraftsman catalog --cloud aws --region R` through bin/kraftsman.mjs against the EC2 emulator (EC2 query API and
// the Price List API on one port, found through AWS_ENDPOINT_URL as the SDK finds it): the catalog it writes holds
// the region's types with their zones, shapes and prices and is a valid --catalog file; no credentials, access
// denied, an unreachable region and bad usage are exit 2 with a line naming what (docs/catalog.md).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEc2Emulator, type Ec2Emulator } from '../../../local/ec2/server.ts';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { isolatedKraftsman } from './isolated-cli.ts';
import { runCli, tempFile } from './run-cli.ts';

const REGION = 'eu-west-1';

/** The CLI as a user runs it: its own process, its environment only (no credentials or endpoint of ours). */
const kraftsman = (args: string[], env: Record<string, string>) =>
  isolatedKraftsman(args, (home) => ({
    AWS_CONFIG_FILE: join(home, 'none'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'none'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...env,
  }));

describe('kraftsman catalog --cloud aws', () => {
  let emu: Ec2Emulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    emu = await startEc2Emulator({ region: REGION, zones: [`${REGION}a`, `${REGION}b`] });
    env = { AWS_ENDPOINT_URL: emu.endpoint, AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' };
  });
  afterAll(async () => emu.close());

  it("writes the region's types with zones, shapes and prices, a valid --catalog file", async () => {
    const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', REGION], env);
    expect(r.code, r.stderr).toBe(0);
    const doc = catalogSchema.parse(parse(r.stdout));
    expect(doc.metadata?.name).toBe(`aws-${REGION}`);
    expect(doc.source).toContain('DescribeSpotPriceHistory');
    const names = doc.instanceTypes.map((t) => t.name);
    expect(names).toEqual([...emu.world.types.keys()].sort());
    const g5 = doc.instanceTypes.find((t) => t.name === 'g5.xlarge');
    expect(g5?.capacity).toMatchObject({ cpu: '4', memory: '16384Mi', 'nvidia.com/gpu': '1' });
    expect(g5?.labels).toMatchObject({ 'karpenter.k8s.aws/instance-gpu-name': 'a10g' });
    expect(g5?.offerings).toEqual(
      expect.arrayContaining([
        { zone: `${REGION}a`, capacityType: 'on-demand', price: 1.006, available: true },
        { zone: `${REGION}b`, capacityType: 'spot', price: 0.4532, available: true },
      ]),
    );
    expect(g5?.offerings).toHaveLength(4);
    // every page of each paged call was read (the emulator pages offerings by 4 without MaxResults)
    expect(emu.world.calls.filter((c) => c === 'DescribeInstanceTypeOfferings').length).toBeGreaterThan(1);
    expect(emu.world.calls).toContain('GetProducts');

    // the file it wrote is a catalog plan/simulate accept
    const file = tempFile('catalog.yaml', r.stdout);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] },
      status: { phase: 'Pending' },
    };
    const pool = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: {
            requirements: [],
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          },
        },
      },
    };
    const input = tempFile('in.yaml', [pool, pod].map((o) => JSON.stringify(o)).join('\n---\n'));
    const sim = await runCli(['simulate', '-f', input, '--catalog', file, '-o', 'json']);
    expect(sim.code, sim.stderr).toBe(0);
    const claims = sim.json<{ nodeClaims: { cheapest: { zone: string } }[] }>().nodeClaims;
    expect(claims[0]?.cheapest.zone).toMatch(/^eu-west-1[ab]$/);
  });

  it('writes JSON with -o json', async () => {
    const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', REGION, '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(catalogSchema.parse(JSON.parse(r.stdout)).instanceTypes.length).toBe(emu.world.types.size);
  });

  it('is exit 2 naming the cause when access is denied', async () => {
    emu.world.faults.failNext.DescribeInstanceTypes = {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
    };
    const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', REGION], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: access denied in AWS region ${REGION}`);
    expect(r.stderr).toContain('You are not authorized to perform this operation.');
  });

  it('is exit 2 when the Price List API fails, naming the call', async () => {
    emu.world.faults.pricingUnavailable = true;
    try {
      const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', REGION], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^error: reading AWS region eu-west-1 failed in GetProducts: .*Pricing is unavailable/m,
      );
    } finally {
      emu.world.faults.pricingUnavailable = false;
    }
  });

  it('is exit 2 without credentials', async () => {
    const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', REGION], {
      AWS_ENDPOINT_URL: emu.endpoint,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: no AWS credentials found');
  });

  it('is exit 2 for a region it cannot reach', async () => {
    const r = await kraftsman(['catalog', '--cloud', 'aws', '--region', 'xx-nowhere-9'], {
      AWS_ACCESS_KEY_ID: 'a',
      AWS_SECRET_ACCESS_KEY: 'b',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot reach AWS region xx-nowhere-9');
  });

  it.each([
    [['--region', REGION], 'catalog needs --cloud aws|gcp'],
    [['--cloud', 'aws'], 'catalog needs --region R'],
    [['--cloud', 'azure', '--region', REGION], '--cloud must be aws or gcp'],
    [['--cloud', 'aws', '--region', 'us-central1'], '--region "us-central1" is not an AWS region name'],
    [['--cloud', 'aws', '--region', REGION, '-o', 'table'], '-o must be yaml or json'],
  ])('refuses %j: %s', async (args, message) => {
    const r = await runCli(['catalog', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
