// The CLI's regions and catalog (docs/contract.md, "Regions"): a snapshot's offerings come from the regions it
// lives in (its Nodes' labels, its NodePools' zone requirements, its GCE subnetworks), `--region` replaces them,
// `--extra-types` adds to or overrides the catalog by name, and a type outside the catalog has an unknown price
// but is never drifted for it. A drift command says why its node drifted.
import { describe, expect, it } from 'vitest';
import { runCli, tempFile } from './run-cli.ts';

// A week before --now: within the getting-started NodePool's expireAfter (720h).
const created = '2026-08-25T00:00:00Z';
/** Karpenter's getting-started NodePool and EC2NodeClass (karpenter.sh, "Getting Started"). */
const gettingStarted = [
  {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          requirements: [
            { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
            { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
            { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
            { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] },
          ],
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          expireAfter: '720h',
        },
      },
      limits: { cpu: '1000' },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1m' },
    },
  },
  {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      role: 'KarpenterNodeRole-demo',
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
    },
  },
];

function node(name: string, type: string, zone: string, labels: Record<string, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: created,
      labels: {
        'karpenter.sh/nodepool': 'default',
        'karpenter.sh/capacity-type': 'on-demand',
        'node.kubernetes.io/instance-type': type,
        'topology.kubernetes.io/zone': zone,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        ...labels,
      },
    },
    spec: { providerID: `aws:///${zone}/i-0${name.length}abc` },
    status: {
      allocatable: { cpu: '15', memory: '60Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

const pod = (name: string, nodeName: string, cpu: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    creationTimestamp: created,
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true },
    ],
  },
  spec: { nodeName, containers: [{ name: 'c', resources: { requests: { cpu, memory: '1Gi' } } }] },
  status: { phase: 'Running' },
});

const pending = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', creationTimestamp: created },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
  status: { phase: 'Pending' },
});

interface PlanJson {
  commands: {
    method: string;
    decision: string;
    candidates: string[];
    reason?: string;
    replacements: { instanceTypes: string[]; requirements: { key: string; values: string[] }[] }[];
  }[];
}

const zonesOf = (p: PlanJson) =>
  p.commands.flatMap((c) =>
    c.replacements.flatMap((r) =>
      r.requirements.filter((q) => q.key === 'topology.kubernetes.io/zone').flatMap((q) => q.values),
    ),
  );

async function plan(objects: unknown[], ...extra: string[]) {
  const f = tempFile('fleet.yaml', objects.map((o) => JSON.stringify(o)).join('\n---\n'));
  const r = await runCli(['plan', '-f', f, '-o', 'json', '--now', '2026-09-01T12:00:00Z', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return { json: r.json<PlanJson>(), stderr: r.stderr };
}

describe('regions', () => {
  const westFleet = [...gettingStarted, node('w1', 'm7i.4xlarge', 'us-west-2a'), pod('p', 'w1', '1')];

  it('a us-west-2 snapshot with the getting-started NodePool gets only us-west-2 offerings', async () => {
    const { json } = await plan(westFleet);
    expect(json.commands.length).toBeGreaterThan(0);
    const zones = zonesOf(json);
    expect(zones.length).toBeGreaterThan(0);
    for (const z of zones) expect(z).toMatch(/^us-west-2[a-z]$/);
  });

  it('--region replaces the regions the snapshot names', async () => {
    const f = tempFile(
      'fleet.yaml',
      [...gettingStarted, pending('q')].map((o) => JSON.stringify(o)).join('\n---\n'),
    );
    const zones = async (...extra: string[]) => {
      const r = await runCli(['simulate', '-f', f, '-o', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      return r
        .json<{ nodeClaims: { cheapest: { zone: string } }[] }>()
        .nodeClaims.map((c) => c.cheapest.zone);
    };
    // Nothing in the snapshot names a region: every region of the catalog (us-east-1 is the cheapest tie-break).
    expect(await zones()).toHaveLength(1);
    const west = await zones('--region', 'us-west-2');
    expect(west).toHaveLength(1);
    expect(west[0]).toMatch(/^us-west-2[a-z]$/);
  });

  it('a Graviton fleet in ap-southeast-2 is priced and replaced there from the built-in catalog', async () => {
    // Outside the earlier catalog's two regions and families: c7g (arm64) in Sydney (issue 31 item 7).
    const arm = structuredClone(gettingStarted[0]) as {
      spec: { template: { spec: { requirements: { key: string; values: string[] }[] } } };
    };
    const archReq = arm.spec.template.spec.requirements.find((r) => r.key === 'kubernetes.io/arch');
    if (archReq) archReq.values = ['arm64'];
    const sydney = [
      arm,
      gettingStarted[1],
      node('s1', 'c7g.4xlarge', 'ap-southeast-2b', { 'kubernetes.io/arch': 'arm64' }),
      pod('p', 's1', '1'),
    ];
    const { json, stderr } = await plan(sydney);
    expect(stderr).not.toContain('not in the catalog');
    const zones = zonesOf(json);
    expect(zones.length).toBeGreaterThan(0);
    for (const z of zones) expect(z).toMatch(/^ap-southeast-2[a-z]$/);
    const types = json.commands.flatMap((c) => c.replacements.flatMap((r) => r.instanceTypes));
    expect(types.length).toBeGreaterThan(0);
    // arm64 types only: Graviton families carry a `g` after the generation (c7g, m8g, r6gd, t4g …)
    for (const t of types) expect(t).toMatch(/^[a-z]+\d+g[a-z]*\./);
  });

  it('--region refuses a name that is no region of either cloud', async () => {
    const f = tempFile('fleet.yaml', JSON.stringify(westFleet[0]));
    const r = await runCli(['plan', '-f', f, '--region', 'mars-1a']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--region "mars-1a" is not an AWS or Google Cloud region name');
  });

  it('a NodePool zone requirement names the region when no node does', async () => {
    // A second NodePool pinned to us-west-2a puts the cluster in us-west-2: the default pool's claim goes there too.
    const west = structuredClone(gettingStarted[0]) as {
      metadata: { name: string };
      spec: { template: { spec: { requirements: { key: string; operator: string; values: string[] }[] } } };
    };
    west.metadata.name = 'west';
    west.spec.template.spec.requirements.push({
      key: 'topology.kubernetes.io/zone',
      operator: 'In',
      values: ['us-west-2a'],
    });
    const q = pending('q');
    const f = tempFile(
      'fleet.yaml',
      [
        ...gettingStarted,
        west,
        { ...q, spec: { ...q.spec, nodeSelector: { 'karpenter.sh/nodepool': 'default' } } },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n---\n'),
    );
    const r = await runCli(['simulate', '-f', f, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const claims = r.json<{ nodeClaims: { nodePool: string; cheapest: { zone: string } }[] }>().nodeClaims;
    expect(claims).toHaveLength(1);
    expect(claims[0]?.nodePool).toBe('default');
    expect(claims[0]?.cheapest.zone).toMatch(/^us-west-2[a-z]$/);
  });
});

describe('types outside the catalog', () => {
  it('have an unknown price and are not drifted; --extra-types adds them', async () => {
    const fleet = [...gettingStarted, node('x1', 'm99.huge', 'us-west-2a'), pod('p', 'x1', '1')];
    const before = await plan(fleet);
    expect(before.stderr).toContain('instance type m99.huge is not in the catalog; its price is unknown');
    expect(before.json.commands.filter((c) => c.method === 'drift')).toEqual([]);

    const extra = tempFile('extra.yaml', {
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: [
        {
          name: 'm99.huge',
          cloud: 'aws',
          capacity: { cpu: '16', memory: '64Gi', pods: '110' },
          labels: {
            'karpenter.k8s.aws/instance-category': 'm',
            'karpenter.k8s.aws/instance-generation': '99',
          },
          offerings: [{ zone: 'us-west-2a', capacityType: 'on-demand', price: 9.5 }],
        },
      ],
    });
    const after = await plan(fleet, '--extra-types', extra);
    expect(after.stderr).not.toContain('m99.huge is not in the catalog');
    // Priced now, the lone small pod's expensive node is replaced by a cheaper one in its region.
    const replace = after.json.commands.find((c) => c.candidates.includes('x1'));
    expect(replace?.decision).toBe('replace');
    for (const z of zonesOf(after.json)) expect(z).toMatch(/^us-west-2[a-z]$/);
  });

  it('a drift command carries its reason', async () => {
    const fleet = [
      ...gettingStarted,
      // Generation 2 no longer satisfies the NodePool's `Gt 2`: RequirementsDrifted.
      node('d1', 'm7i.4xlarge', 'us-west-2a', { 'karpenter.k8s.aws/instance-generation': '2' }),
      pod('p', 'd1', '14'),
    ];
    const { json } = await plan(fleet);
    const drift = json.commands.find((c) => c.method === 'drift');
    expect(drift?.candidates).toEqual(['d1']);
    expect(drift?.reason).toBe('RequirementsDrifted');
  });
});
