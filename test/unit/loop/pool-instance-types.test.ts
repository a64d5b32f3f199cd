// The instance types every NodePool's node class offers, as provision and the disruption passes read them: one
// cache read per pool with a node class, merged by cloud and name, and decided by the pools alone — the pods,
// Nodes and claims of a 200-node ramp fleet change nothing (they are left out of the snapshot built for it).
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { NodeClass } from '../../../shared/model/nodeclass.ts';
import { poolInstanceTypes, poolSpecs } from '../../../shared/loop/pool-instance-types.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';

const catalog = fleetCatalog();

/** The cache's shape: every node class of a cloud offers that cloud's catalog types; the reads are recorded. */
function lookup() {
  const reads: string[] = [];
  return {
    reads,
    get: (cloud: Cloud, nodeClass: NodeClass) => {
      reads.push(`${cloud}/${nodeClass.metadata.name}`);
      return Promise.resolve(catalog.instanceTypes.filter((t) => t.cloud === cloud));
    },
  };
}

describe('poolSpecs', () => {
  const seed = Number(process.env.KRAFTSMAN_SEED ?? Date.now() % 100_000);
  const fleet = recognize(
    generateRamp({ nodes: 200, pending: 300, seed }).objects.map((value) => ({ source: 'ramp', value })),
  ).objects;

  it(`reads each pool's node class once and merges the types by cloud and name (seed ${seed})`, async () => {
    const l = lookup();
    const specs = await poolSpecs(l, fleet);
    const pools = fleet.nodePools.filter((p) => p.spec.template.spec.nodeClassRef);
    expect(l.reads).toHaveLength(pools.length);
    const keys = specs.map((s) => `${s.cloud}|${s.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    const clouds = new Set(l.reads.map((r) => r.split('/')[0]));
    expect(keys.sort()).toEqual(
      catalog.instanceTypes
        .filter((t) => clouds.has(t.cloud))
        .map((t) => `${t.cloud}|${t.name}`)
        .sort(),
    );
  });

  it('is decided by the NodePools and node classes alone, whatever the pods, Nodes and claims', async () => {
    const bare = { ...fleet, pods: [], nodes: [], nodeClaims: [] };
    expect(fleet.pods.length).toBeGreaterThan(1000);
    expect(await poolSpecs(lookup(), fleet)).toEqual(await poolSpecs(lookup(), bare));
    const types = await poolInstanceTypes(lookup(), fleet);
    expect(types.map((t) => t.name).sort()).toEqual(
      (await poolSpecs(lookup(), bare)).map((s) => s.name).sort(),
    );
  });

  it('skips a NodePool whose node class is missing', async () => {
    const l = lookup();
    const [first] = fleet.nodeClasses;
    const cloud = first?.kind === 'GCENodeClass' ? 'gcp' : 'aws';
    const without = { ...fleet, nodeClasses: fleet.nodeClasses.filter((c) => c !== first) };
    await poolSpecs(l, without);
    expect(l.reads.length).toBeGreaterThan(0);
    expect(l.reads).not.toContain(`${cloud}/${String(first?.metadata.name)}`);
  });
});
