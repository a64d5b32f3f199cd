// An unschedulable pod's reason names the NodePool limit that turned it away, with the limit and its use,
// through the same path as `kraftsman simulate` in both modes (docs/contract.md "Rules for snapshot objects").
import { describe, expect, it } from 'vitest';
import { fromQuantities } from '../../../shared/model/resources.ts';
import { nodesLimitReason, typesLimitReason } from '../../../shared/scheduling/limit-reasons.ts';
import { node, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const MODES = [false, true] as const;
const reasonOf = (s: ReturnType<typeof simulate>, name: string): string | undefined => {
  const p = s.pods.find((x) => x.pod === `default/${name}`);
  return p && 'reason' in p ? p.reason : undefined;
};

describe('the limit named in words', () => {
  const gpuTypes = [1, 2, 4, 8].map((g) => ({
    capacity: fromQuantities({ cpu: String(g * 8), memory: `${g * 64}Gi`, 'nvidia.com/gpu': String(g) }),
  }));

  it('names the limit every type exceeds, with the limit and what is in use', () => {
    const limits = fromQuantities({ 'nvidia.com/gpu': '16', memory: '2Ti' });
    const remaining = fromQuantities({ 'nvidia.com/gpu': '0', memory: '1Ti' });
    expect(typesLimitReason(gpuTypes, remaining, limits)).toBe(
      'limit nvidia.com/gpu 16 would be exceeded (in use 16)',
    );
  });

  it('names every limit that rules out a type, the one ruling out most first, memory in binary units', () => {
    const limits = fromQuantities({ 'nvidia.com/gpu': '16', memory: '1Ti' });
    // 3 GPUs and 200Gi left: the 4- and 8-GPU types exceed the GPUs, the 4- and 8-GPU types (256Gi, 512Gi) the memory
    const remaining = fromQuantities({ 'nvidia.com/gpu': '3', memory: '100Gi' });
    expect(typesLimitReason(gpuTypes, remaining, limits)).toBe(
      'limit memory 1Ti would be exceeded (in use 924Gi), limit nvidia.com/gpu 16 would be exceeded (in use 13)',
    );
  });

  it('says what is left when the declared limit is unknown, and phrases the nodes limit', () => {
    expect(typesLimitReason(gpuTypes, fromQuantities({ 'nvidia.com/gpu': '0' }), undefined)).toBe(
      'limit nvidia.com/gpu would be exceeded (0 left)',
    );
    expect(nodesLimitReason(fromQuantities({ nodes: '0' }), fromQuantities({ nodes: '10' }))).toBe(
      'limit nodes 10 reached (in use 10)',
    );
  });
});

describe('simulate names the limit', () => {
  const fleet = [node('n1', { pool: 'heavy', type: 's-2' }), pod('full', { cpu: '1500m', node: 'n1' })];

  for (const upstream of MODES) {
    it(`a pool whose cpu limit every type exceeds (upstream: ${upstream})`, () => {
      const s = simulate([nodePool('heavy', { limits: { cpu: '2' } }), ...fleet, pod('p', { cpu: '1' })], {
        upstream,
      });
      expect(reasonOf(s, 'p')).toBe(
        'all available instance types exceed limits for NodePool heavy: limit cpu 2 would be exceeded (in use 2)',
      );
    });

    it(`a pool whose limit leaves only types too small (upstream: ${upstream})`, () => {
      const s = simulate([nodePool('heavy', { limits: { cpu: '4' } }), ...fleet, pod('p', { cpu: '3' })], {
        upstream,
      });
      // not just "no instance type has enough resources": the limit that cut the larger types
      expect(reasonOf(s, 'p')).toMatch(
        /^NodePool heavy: .* within its limits: limit cpu 4 would be exceeded \(in use 2\) by \d+ of its \d+ types$/,
      );
    });

    it(`a pool at its node limit (upstream: ${upstream})`, () => {
      const s = simulate([nodePool('heavy', { limits: { nodes: '1' } }), ...fleet, pod('p', { cpu: '1' })], {
        upstream,
      });
      expect(reasonOf(s, 'p')).toBe(
        'node limits have been exhausted for NodePool heavy: limit nodes 1 reached (in use 1)',
      );
    });
  }

  it('a pool without limits keeps the plain reason', () => {
    const s = simulate([nodePool('free'), pod('huge', { cpu: '1000' })]);
    expect(reasonOf(s, 'huge')).not.toMatch(/limit/);
  });
});
