import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../shared/model/pod.ts';
import { podRequests } from '../../../shared/scheduling/pod-requests.ts';

const c = (cpu: string, extra: Record<string, unknown> = {}) => ({
  name: 'c',
  resources: { requests: { cpu } },
  ...extra,
});
const spec = (s: Partial<Pod['spec']>): Pod['spec'] => ({ containers: [c('1')], ...s }) as Pod['spec'];

describe('podRequests', () => {
  it('sums containers and counts one pod slot', () => {
    expect(podRequests(spec({ containers: [c('1'), c('500m')] }))).toEqual({ cpu: 1500, pods: 1000 });
  });

  it('takes the larger of the init containers and the main containers', () => {
    expect(podRequests(spec({ initContainers: [c('3')] })).cpu).toBe(3000);
    expect(podRequests(spec({ initContainers: [c('200m')] })).cpu).toBe(1000);
  });

  it('adds sidecars (restartable init containers) to the main containers and to later init containers', () => {
    const s = spec({ initContainers: [c('1', { restartPolicy: 'Always' }), c('2500m')] });
    // main 1 + sidecar 1 = 2; the later init container runs beside the sidecar: 2.5 + 1 = 3.5
    expect(podRequests(s).cpu).toBe(3500);
  });

  it('adds pod overhead', () => {
    expect(podRequests(spec({ overhead: { cpu: '250m' } })).cpu).toBe(1250);
  });

  it('uses limits where requests are missing', () => {
    const s = spec({
      containers: [{ name: 'c', resources: { limits: { cpu: '2', 'nvidia.com/gpu': '1' } } }],
    });
    expect(podRequests(s)).toMatchObject({ cpu: 2000, 'nvidia.com/gpu': 1000 });
  });

  it('parses a spec once: the same object gives the same frozen list, a copy is computed anew', () => {
    const s = spec({ containers: [c('2')] });
    const first = podRequests(s);
    expect(podRequests(s)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as Record<string, number>).cpu = 1;
    }).toThrow(TypeError);
    const copy = { ...s, containers: [c('3')] };
    expect(podRequests(copy)).not.toBe(first);
    expect(podRequests(copy).cpu).toBe(3000);
    expect(podRequests(s).cpu).toBe(2000);
  });
});
