// Karpenter's computeConsolidation price rules, replacement attribution and the spot rules; each case names
// the rule that decides it.
import { describe, expect, it } from 'vitest';
import { decisionOf } from '../../../shared/disruption/types.ts';
import { names, node, nodePool, plan, pod, reasonOf } from './fixtures.ts';

describe('delete or replace', () => {
  it('deletes a node whose pods fit on other capacity', () => {
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-8' }),
      node('worker', { pool: null, type: 's-8' }),
      pod('a-0', { node: 'node-a', cpu: '2' }),
    ]);
    expect(names(r)).toEqual([['node-a']]);
    expect(decisionOf(r.commands[0]!)).toBe('delete');
    expect(r.commands[0]?.replacements).toEqual([]);
  });

  it('replaces with the cheaper types only, cheapest first, never the same type', () => {
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-16' }),
      pod('a-0', { node: 'node-a', cpu: '3' }),
    ]);
    const rep = r.commands[0]?.replacements[0];
    expect(rep?.instanceTypes).toEqual(['s-4', 's-8']);
    expect(rep?.price).toBeCloseTo(0.2);
    expect(rep?.capacityType).toBe('on-demand');
  });

  it('does nothing when no type is strictly cheaper at its worst launch price', () => {
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-4' }),
      pod('a-0', { node: 'node-a', cpu: '3' }),
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('no-cheaper-replacement');
  });

  it('does nothing when a moving pod fits nowhere', () => {
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-16' }),
      pod('a-0', { node: 'node-a', cpu: '20' }),
    ]);
    expect(reasonOf(r, 'node-a')).toBe('unschedulable-pods');
  });

  it('never relies on an in-flight NodeClaim for the moving pods', () => {
    const inflight = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'claim-new', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-8'] },
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1a'] },
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
      },
    };
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-4' }),
      pod('a-0', { node: 'node-a', cpu: '1' }),
      inflight,
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('unschedulable-pods');
  });
});

describe('replacement attribution (ConsolidationAttributeReplacements)', () => {
  // node-a's pod needs a small new node; a pending 14-CPU pod needs a big one of its own.
  const fleet = [
    nodePool('default'),
    node('node-a', { type: 's-16' }),
    pod('a-0', { node: 'node-a', cpu: '3' }),
    pod('backlog-0', { cpu: '14' }),
  ];

  it('counts only the claim that hosts the candidate pod', () => {
    const r = plan(fleet);
    expect(r.commands).toHaveLength(1);
    expect(r.commands[0]?.replacements.map((x) => x.instanceTypes[0])).toEqual(['s-4']);
  });

  it('counts a claim that hosts a candidate pod beside backlog pods (some pod of the candidate, not every pod)', () => {
    // The small backlog pod packs onto the candidate's replacement: that claim is still the command's.
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-16' }),
      pod('a-0', { node: 'node-a', cpu: '3' }),
      pod('backlog-0', { cpu: '500m' }),
    ]);
    expect(r.commands).toHaveLength(1);
    expect(decisionOf(r.commands[0]!)).toBe('replace');
    expect(r.commands[0]?.replacements).toHaveLength(1);
  });

  it('upstream counts the backlog claim too, so the command needs two replacements and is dropped', () => {
    const r = plan(fleet, { upstream: true });
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('multiple-replacements-required');
  });
});

describe('capacity types', () => {
  it('pins an on-demand candidate replacement to spot when the pool allows both', () => {
    const r = plan([
      nodePool('default', { capacityTypes: ['on-demand', 'spot'] }),
      node('node-a', { type: 's-16' }),
      pod('a-0', { node: 'node-a', cpu: '3' }),
    ]);
    const rep = r.commands[0]?.replacements[0];
    expect(rep?.capacityType).toBe('spot');
    expect(rep?.requirements).toContainEqual({
      key: 'karpenter.sh/capacity-type',
      operator: 'In',
      values: ['spot'],
    });
  });

  const spotFleet = [
    nodePool('default', { capacityTypes: ['on-demand', 'spot'] }),
    node('node-a', { type: 's-16', capacityType: 'spot' }),
    pod('a-0', { node: 'node-a', cpu: '1' }),
  ];

  it('only deletes spot nodes while spot-to-spot is off (the default)', () => {
    const r = plan(spotFleet);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('spot-to-spot-disabled');
  });

  it('needs at least the minimum number of cheaper spot types', () => {
    const r = plan(spotFleet, { spotToSpot: true });
    expect(reasonOf(r, 'node-a')).toBe('spot-to-spot-insufficient-types');
  });

  it('replaces spot with spot cut to the N cheapest types when enough are cheaper', () => {
    const r = plan(spotFleet, { spotToSpot: true, spotToSpotMinTypes: 2 });
    const rep = r.commands[0]?.replacements[0];
    expect(rep?.instanceTypes).toEqual(['s-2', 's-4']);
    expect(rep?.capacityType).toBe('spot');
  });

  it('reports savings as candidate price minus replacement price', () => {
    const r = plan([
      nodePool('default'),
      node('node-a', { type: 's-16' }),
      pod('a-0', { node: 'node-a', cpu: '3' }),
    ]);
    const cmd = r.commands[0]!;
    expect(cmd.candidates[0]!.price - cmd.replacements[0]!.price).toBeCloseTo(0.6);
  });
});

describe('pending pods no NodePool can take (verdict exclusion)', () => {
  // A pending pod asking for a GPU no type offers can never be provisioned; it still lands on existing
  // capacity in Karpenter's simulation and crowds out the candidate's pod there.
  const gpuPod = pod('gpu-0', { cpu: '1' });
  const resources = (
    gpuPod.spec as {
      containers: { resources: { requests: Record<string, string>; limits?: Record<string, string> } }[];
    }
  ).containers[0]!.resources;
  resources.requests['nvidia.com/gpu'] = '1';
  resources.limits = { 'nvidia.com/gpu': '1' }; // an extended resource's limit equals its request
  const picky = pod('picky-0', { cpu: '7', nodeSelector: { team: 'x' } });
  const fleet = [
    nodePool('default'),
    node('node-a', { type: 's-8' }),
    node('worker', { pool: null, type: 's-8', labels: { team: 'x' } }),
    pod('a-0', { node: 'node-a', cpu: '6' }),
    picky,
    gpuPod,
  ];

  it('leaves them out of disruption simulations', () => {
    expect(names(plan(fleet))).toEqual([['node-a']]);
  });

  it('upstream keeps them, and the candidate pod no longer fits', () => {
    const r = plan(fleet, { upstream: true });
    expect(r.commands).toEqual([]);
  });

  it('keeps a pod that only NodePool limits hold back (that depends on the cluster)', () => {
    const pool = nodePool('default');
    (pool.spec as Record<string, unknown>).limits = { cpu: '8' };
    // node-b (not a candidate) uses up the limit even with node-a's share freed, as the simulation frees it
    const r = plan([
      pool,
      node('node-a', { type: 's-8' }),
      node('node-b', { type: 's-8', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
      pod('b-0', { node: 'node-b', cpu: '6' }),
      node('worker', { pool: null, type: 's-8' }),
      pod('a-0', { node: 'node-a', cpu: '6' }),
      pod('big-0', { cpu: '7' }),
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('unschedulable-pods');
  });
});
