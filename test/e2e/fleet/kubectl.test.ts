// kubectl against the local fleet feels like a cluster (docs/fleet.md "kubectl"): the real kubectl binary reads
// back, through the Kubernetes emulator's server-side Table printing, the NodePools' READY column, the
// NodeClaims' printer columns (TYPE, CAPACITY, ZONE, NODE, READY) and conditions, the node classes' READY and
// status, each launched claim's capacity equal to its Node's, the events kraftsman wrote, and the nodes and pods
// with their real columns.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFleet } from '../../../local/fleet/run.ts';
import { findScenario } from '../../../local/fleet/scenarios/index.ts';
import type { FleetEnvironment } from '../../../local/fleet/environment.ts';
import { parseQuantity } from '../../../shared/model/quantity.ts';

const run = promisify(execFile);
let env: FleetEnvironment;
let close: () => Promise<void>;
let hold: (stop: Promise<unknown>, minuteMs?: number) => Promise<void>;

beforeAll(async () => {
  const scenario = findScenario('decay-bound');
  if (!scenario) throw new Error('scenario decay-bound is gone');
  const fleet = await runFleet({
    scenario,
    seed: 42,
    speed: 1e6,
    minutes: 4,
    upstream: false,
    wallNow: Date.now,
  });
  env = fleet.env;
  hold = fleet.hold;
  close = () => fleet.env.close();
}, 600_000);
afterAll(async () => {
  await close?.();
});

/** `kubectl get ARGS` against the fleet: its table split into rows of cells (columns split on 2+ spaces). */
async function get(...args: string[]): Promise<{ header: string[]; rows: string[][] }> {
  const { stdout } = await run('kubectl', ['--kubeconfig', env.kubeconfig, 'get', ...args], {
    timeout: 60_000,
  });
  const [header = '', ...lines] = stdout.trimEnd().split('\n');
  const split = (l: string) => l.trim().split(/\s{2,}/);
  return { header: split(header), rows: lines.map(split) };
}

describe('kubectl get against the local fleet', () => {
  it('prints the NodePools with their CRD printer columns, READY from the status the lifecycle wrote', async () => {
    const t = await get('nodepools');
    expect(t.header).toEqual(['NAME', 'NODECLASS', 'NODES', 'READY', 'AGE']);
    expect(t.rows.length).toBeGreaterThan(0);
    for (const r of t.rows) expect(r[3], r.join(' ')).toBe('True');
    // the simulated clock drives AGE: a fresh fleet's pools are minutes old, not the real calendar's
    for (const r of t.rows) expect(r[4]).toMatch(/^\d+m(\d+s)?$|^\d+s$/);
  });

  it('prints the node classes READY from the status lifecycle resolved, with their subnets and images', async () => {
    const ec2 = await get('ec2nodeclasses');
    expect(ec2.header).toEqual(['NAME', 'READY', 'AGE']);
    expect(ec2.rows.length).toBeGreaterThan(0);
    for (const r of ec2.rows) expect(r[1], r.join(' ')).toBe('True');
    const gce = await get('gcenodeclasses');
    for (const r of gce.rows) expect(r[1], r.join(' ')).toBe('True');
    const name = ec2.rows[0]?.[0] ?? '';
    const path = (p: string) =>
      get('ec2nodeclass', name, '-o', `jsonpath={${p}}`).then((t) => t.header.join(' '));
    expect(await path('.status.subnets[*].zoneID')).toMatch(/^[a-z]{3}\d-az\d/);
    expect(await path('.status.amis[*].id')).toMatch(/^ami-/);
    expect(await path('.status.conditions[?(@.type=="SubnetsReady")].status')).toBe('True');
  });

  it('prints the NodeClaims with type, capacity type, zone, node and READY', async () => {
    const t = await get('nodeclaims');
    expect(t.header).toEqual(['NAME', 'TYPE', 'CAPACITY', 'ZONE', 'NODE', 'READY', 'AGE']);
    const ready = t.rows.filter((r) => r[5] === 'True');
    expect(ready.length).toBeGreaterThan(0);
    for (const r of ready) {
      expect(r[1]).toMatch(/^[a-z0-9]+[.-][a-z0-9.-]+$/); // an instance or machine type
      expect(['on-demand', 'spot', 'reserved']).toContain(r[2]);
      expect(r[4]).not.toBe('');
    }
    // A claim's conditions as kubectl describe lists them: Karpenter's lifecycle ones, and Consolidatable once the
    // inference pools' consolidateAfter (1m) passed without a pod event (lifecycle's disruption conditions).
    const conditions = async (name: string) =>
      (
        await run(
          'kubectl',
          [
            '--kubeconfig',
            env.kubeconfig,
            'get',
            'nodeclaim',
            name,
            '-o',
            'jsonpath={range .status.conditions[*]}{.type}={.status}{"\\n"}{end}',
          ],
          { timeout: 60_000 },
        )
      ).stdout
        .trim()
        .split('\n');
    const first = await conditions(ready[0]?.[0] ?? '');
    expect(first).toEqual(
      expect.arrayContaining(['Launched=True', 'Registered=True', 'Initialized=True', 'Ready=True']),
    );
    const all = await Promise.all(ready.map((r) => conditions(r[0] ?? '')));
    expect(all.some((c) => c.includes('Consolidatable=True'))).toBe(true);
    for (const c of all)
      expect(c.filter((x) => x.startsWith('Consolidatable=') && x !== 'Consolidatable=True')).toEqual([]);
  });

  it('prints wide node and pod columns, and the events kraftsman wrote', async () => {
    const nodes = await get('nodes', '-o', 'wide');
    expect(nodes.header.slice(0, 6)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP']);
    expect(nodes.rows.some((r) => r[1] === 'Ready')).toBe(true);
    // a registered node has its kubelet version and an internal address, as a real one does
    for (const r of nodes.rows.filter((x) => x[1] === 'Ready')) {
      expect(r[4]).toMatch(/^v1\.\d+\.\d+/);
      expect(r[5]).toMatch(/^10\.\d+\.\d+\.\d+$/);
    }
    const regions = await get('nodes', '-L', 'topology.kubernetes.io/zone,topology.kubernetes.io/region');
    for (const r of regions.rows.slice(0, 20)) {
      const [zone, region] = r.slice(-2) as [string, string];
      expect(zone.startsWith(region), `${zone} in ${region}`).toBe(true);
      expect(['us-east-1', 'us-west-2', 'us-central1']).toContain(region);
    }
    const pods = await get('pods', '-A');
    expect(pods.header).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(pods.rows.some((r) => r[3] === 'Running')).toBe(true);
    const events = await get('events', '-A');
    expect(events.header).toEqual(['NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const reasons = new Set(events.rows.map((r) => r[3]));
    expect(
      [...reasons].some((r) =>
        ['Nominated', 'Launched', 'Registered', 'Initialized', 'DisruptionTerminating'].includes(r ?? ''),
      ),
    ).toBe(true);
  });

  it('applies manifests with client validation on (the OpenAPI v3 documents), strict about unknown fields', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kraftsman-kubectl-'));
    const pod = join(dir, 'pod.yaml');
    writeFileSync(
      pod,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: gpu-probe, namespace: default}\nspec:\n  containers: [{name: c, image: pause, resources: {limits: {nvidia.com/gpu: "1"}}}]\n',
    );
    const kubectl = (...args: string[]) =>
      run('kubectl', ['--kubeconfig', env.kubeconfig, ...args], { timeout: 60_000 });
    expect((await kubectl('apply', '-f', pod)).stdout).toMatch(/pod\/gpu-probe created/);
    expect((await kubectl('apply', '-f', pod)).stdout).toMatch(/pod\/gpu-probe unchanged/);
    const pool = join(dir, 'pool.yaml');
    writeFileSync(
      pool,
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: probe}\nspec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n      requirements: []\n      bogus: 1\n',
    );
    const refused = await kubectl('apply', '-f', pool).then(
      () => '',
      (e: { stderr?: string }) => e.stderr ?? '',
    );
    expect(refused).toMatch(/strict decoding error: unknown field "spec\.template\.spec\.bogus"/);
    const crds = await get('crds');
    expect(crds.rows.map((r) => r[0])).toEqual(
      expect.arrayContaining(['nodepools.karpenter.sh', 'nodeclaims.karpenter.sh']),
    );
    // coordination.k8s.io is served: an empty list, not "the server doesn't have a resource type"
    expect((await kubectl('get', 'leases', '-A')).stderr).toMatch(/No resources found/);
  });

  it('keeps the functions running under --hold: kubectl delete node drains it and it goes', async () => {
    const kubectl = (...args: string[]) =>
      run('kubectl', ['--kubeconfig', env.kubeconfig, ...args], { timeout: 60_000 });
    // a node kraftsman manages that hosts pods
    const pods = await get('pods', '-A', '-o', 'wide');
    const busy = pods.rows.map((r) => r[7]).find((n) => n && n !== '<none>' && !n.startsWith('gke-'));
    expect(busy, 'a node with pods').toBeDefined();
    let release = () => {};
    const stop = new Promise<void>((r) => (release = r));
    // one simulated minute every 200 ms of wall time, instead of a real minute
    const holding = hold(stop, 200);
    try {
      await kubectl('delete', 'node', busy as string, '--wait=false');
      let gone = false;
      for (let i = 0; i < 300 && !gone; i++) {
        gone = await kubectl('get', 'node', busy as string).then(
          () => false,
          (e: { stderr?: string }) => /NotFound/.test(e.stderr ?? ''),
        );
        if (!gone) await new Promise((r) => setTimeout(r, 200));
      }
      expect(gone, `${busy} drained, terminated and released`).toBe(true);
      // its pods were evicted, not lost with it: none is bound to the node any more
      const after = await get('pods', '-A', '-o', 'wide');
      expect(after.rows.filter((r) => r[7] === busy)).toEqual([]);
    } finally {
      release();
      await holding;
    }
  }, 300_000);

  // Last: the drain above made kraftsman launch replacements, whose Nodes the local kubelet registered.
  it("gives every launched NodeClaim its Node's capacity and allocatable (same type, same kubelet overhead)", async () => {
    type Obj = {
      metadata: { name: string };
      status?: { nodeName?: string; capacity?: Record<string, string>; allocatable?: Record<string, string> };
    };
    const json = async (kind: string) =>
      (
        JSON.parse(
          (
            await run('kubectl', ['--kubeconfig', env.kubeconfig, 'get', kind, '-o', 'json'], {
              timeout: 60_000,
            })
          ).stdout,
        ) as { items: Obj[] }
      ).items;
    const nodes = new Map((await json('nodes')).map((n) => [n.metadata.name, n]));
    const quantities = (list: Record<string, string> | undefined) =>
      Object.fromEntries(Object.entries(list ?? {}).map(([k, v]) => [k, String(parseQuantity(v))]));
    const launched = (await json('nodeclaims')).filter(
      (c) => c.status?.nodeName && nodes.has(c.status.nodeName),
    );
    expect(launched.length).toBeGreaterThan(0);
    for (const c of launched) {
      const n = nodes.get(c.status?.nodeName ?? '');
      expect(quantities(n?.status?.capacity), `${c.metadata.name} capacity`).toEqual(
        quantities(c.status?.capacity),
      );
      expect(quantities(n?.status?.allocatable), `${c.metadata.name} allocatable`).toEqual(
        quantities(c.status?.allocatable),
      );
    }
  });
});
