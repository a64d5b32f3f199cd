// Gangs in the ecosystem's own terms through the real binary (node bin/kraftsman.mjs simulate): Workload API gangs
// all or nothing like Volcano's, and ProvisioningRequests of each class answered as docs/contract.md says.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalog, node, nodePool, pod } from '../../fixtures/builders/index.ts';
import { tempFile } from './run-cli.ts';

type Obj = Record<string, unknown>;
const BIN = join(import.meta.dirname, '../../../bin/kraftsman.mjs');
const CHECK = 'check-capacity.autoscaling.x-k8s.io';
const ATOMIC = 'best-effort-atomic-scale-up.autoscaling.x-k8s.io';

const catalogFile = () =>
  tempFile('catalog.yaml', {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: catalog(),
  });

function simulate(objects: Obj[]) {
  const input = tempFile('in.yaml', { apiVersion: 'v1', kind: 'List', items: objects });
  const r = spawnSync(
    process.execPath,
    [BIN, 'simulate', '-f', input, '--catalog', catalogFile(), '-o', 'json'],
    {
      encoding: 'utf8',
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Out {
  pods: { pod: string; result: string; reason?: string; nodeClaim?: string }[];
  nodeClaims: { name: string; pods: string[]; gang?: string }[];
  provisioningRequests?: {
    name: string;
    class: string;
    result: string;
    nodeClaims: string[];
    reason: string;
  }[];
}
const json = (r: { code: number | null; stdout: string; stderr: string }): Out => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Out;
};

const limited = () => nodePool('default', { limits: { cpu: '32' } });
const template = (name: string, cpu: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name, namespace: 'ml' },
  template: {
    metadata: { labels: { app: name } },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory: '1Gi' } } }] },
  },
});
const request = (
  name: string,
  cls: string,
  podSets: { t: string; count: number }[],
  created = '2026-08-01T00:00:00Z',
): Obj => ({
  apiVersion: 'autoscaling.x-k8s.io/v1',
  kind: 'ProvisioningRequest',
  metadata: { name, namespace: 'ml', creationTimestamp: created },
  spec: {
    provisioningClassName: cls,
    podSets: podSets.map((s) => ({ podTemplateRef: { name: s.t }, count: s.count })),
  },
});

describe('kraftsman simulate: Workload API gangs', () => {
  it('places a gang PodGroup (1.36) and a gang Workload pod group (1.35) all or nothing, as a Volcano gang', () => {
    const member = (name: string, spec: Obj) => pod(name, { cpu: '12', spec });
    const out = json(
      simulate([
        limited(),
        {
          apiVersion: 'scheduling.k8s.io/v1alpha2',
          kind: 'PodGroup',
          metadata: { name: 'train-0', namespace: 'default' },
          spec: { schedulingPolicy: { gang: { minCount: 3 } } },
        },
        ...['a-0', 'a-1', 'a-2'].map((n) => member(n, { schedulingGroup: { podGroupName: 'train-0' } })),
        {
          apiVersion: 'scheduling.k8s.io/v1alpha1',
          kind: 'Workload',
          metadata: { name: 'tune', namespace: 'default' },
          spec: { podGroups: [{ name: 'workers', policy: { gang: { minCount: 2 } } }] },
        },
        ...['b-0', 'b-1'].map((n) => member(n, { workloadRef: { name: 'tune', podGroup: 'workers' } })),
      ]),
    );
    // 32 cpu hold two of the 12-cpu pods: the gang of two is placed whole, the gang of three not at all
    for (const p of ['a-0', 'a-1', 'a-2'])
      expect(out.pods.find((x) => x.pod === `default/${p}`)).toMatchObject({
        result: 'unschedulable',
        reason: expect.stringMatching(/gang default\/podgroup:train-0 cannot be placed all or nothing/),
      });
    expect(out.pods.filter((x) => x.pod.startsWith('default/b-')).map((x) => x.result)).toEqual([
      'new',
      'new',
    ]);
    expect(out.nodeClaims.every((c) => c.gang === 'default/workload:tune/workers')).toBe(true);
    expect(out.nodeClaims.flatMap((c) => c.pods).sort()).toEqual(['default/b-0', 'default/b-1']);
  });
});

describe('kraftsman simulate: ProvisioningRequests', () => {
  const cluster = () => [
    nodePool(),
    node('n1', { pool: 'default', type: 's-16', allocatable: { cpu: '16', memory: '64Gi', pods: '110' } }),
    pod('solo', { cpu: '1', ns: 'ml' }),
    template('small', '4'),
    template('big', '12'),
    template('huge', '64'),
  ];

  it('answers each class: check-capacity on existing capacity only, atomic all or none, another class ignored', () => {
    const out = json(
      simulate([
        ...cluster(),
        request('fits', CHECK, [{ t: 'small', count: 3 }]),
        request('too-many', CHECK, [{ t: 'small', count: 5 }], '2026-08-01T00:01:00Z'),
        request('gang', ATOMIC, [{ t: 'big', count: 2 }], '2026-08-01T00:02:00Z'),
        request(
          'partial',
          ATOMIC,
          [
            { t: 'small', count: 2 },
            { t: 'huge', count: 1 },
          ],
          '2026-08-01T00:03:00Z',
        ),
        request('other', 'queued-provisioning.gke.io', [{ t: 'small', count: 1 }], '2026-08-01T00:04:00Z'),
      ]),
    );
    // the requests' pods are not in `pods`: only the pending pod is
    expect(out.pods.map((p) => p.pod)).toEqual(['ml/solo']);
    const pr = (name: string) => out.provisioningRequests?.find((q) => q.name === `ml/${name}`);
    expect(out.provisioningRequests?.map((q) => q.name)).toEqual([
      'ml/fits',
      'ml/too-many',
      'ml/gang',
      'ml/partial',
      'ml/other',
    ]);
    expect(pr('fits')).toMatchObject({ class: CHECK, result: 'provisioned', nodeClaims: [] });
    // 20 cpu do not fit the 16 of n1, and check-capacity never opens a claim although the NodePool could
    expect(pr('too-many')).toMatchObject({
      class: CHECK,
      result: 'failed',
      nodeClaims: [],
      reason: expect.stringMatching(/CapacityIsNotFound/),
    });
    const gang = pr('gang');
    expect(gang).toMatchObject({ class: ATOMIC, result: 'provisioned' });
    // its claims are listed with the others, named on from them, and hold only its pods
    const claims = out.nodeClaims.filter((c) => gang?.nodeClaims.includes(c.name));
    expect(claims.length).toBe(gang?.nodeClaims.length);
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.flatMap((c) => c.pods).every((p) => /^ml\/gang-0-[01]$/.test(p))).toBe(true);
    // the 64-cpu pod fits no type, so neither do the two small ones get a claim
    expect(pr('partial')).toMatchObject({
      result: 'failed',
      nodeClaims: [],
      reason: expect.stringMatching(
        /the 3 pods cannot all be placed, so none is: gang ml\/provisioningrequest:partial .*2 of minMember 3/,
      ),
    });
    expect(out.nodeClaims.flatMap((c) => c.pods).some((p) => p.startsWith('ml/partial'))).toBe(false);
    expect(pr('other')).toMatchObject({
      result: 'ignored',
      nodeClaims: [],
      reason: expect.stringMatching(/queued-provisioning\.gke\.io/),
    });
    expect(out.nodeClaims.map((c) => c.name)).toEqual(out.nodeClaims.map((_, i) => `new-${i + 1}`));
  });

  it('leaves the output as it was without requests (no provisioningRequests key)', () => {
    const out = json(simulate(cluster()));
    expect(out).not.toHaveProperty('provisioningRequests');
  });

  it('refuses a request whose PodTemplate is not in the input: exit 2 naming request, field and template', () => {
    const r = simulate([
      ...cluster(),
      request('lost', ATOMIC, [
        { t: 'small', count: 1 },
        { t: 'gone', count: 2 },
      ]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /in\.yaml: ProvisioningRequest ml\/lost: spec\.podSets\[1\]\.podTemplateRef\.name: PodTemplate ml\/gone is not in the input/,
    );
  });

  it('refuses a malformed request naming the field', () => {
    const bad = request('bad', ATOMIC, [{ t: 'small', count: 0 }]);
    const r = simulate([...cluster(), bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ProvisioningRequest ml\/bad: spec\.podSets\[0\]\.count: .*>=1/);
  });
});
