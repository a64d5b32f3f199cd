// The bound-pod index topology counts from: only the pods a group can count, in their order in the list
// (a hostname group's domain order follows it), and the same answer as a scan of the whole list.
import { describe, expect, it } from 'vitest';
import { boundIn } from '../../../shared/scheduling/bound-index.ts';
import type { BoundPod } from '../../../shared/scheduling/topology.ts';

const pod = (namespace: string, name: string): BoundPod => ({
  key: `${namespace}/${name}`,
  namespace,
  labels: { app: name },
  nodeLabels: {},
  nodeTaints: [],
  antiAffinity: [],
});
const list = [pod('a', 'one'), pod('b', 'two'), pod('a', 'three'), pod('c', 'four'), pod('b', 'five')];
const keys = (pods: readonly BoundPod[]) => pods.map((p) => p.key);

describe('boundIn', () => {
  it('reads the pods of the given namespaces, in list order', () => {
    expect(keys(boundIn(list, { namespaces: new Set(['a']) }))).toEqual(['a/one', 'a/three']);
    expect(keys(boundIn(list, { namespaces: new Set(['b', 'a']) }))).toEqual(
      keys(list.filter((p) => p.namespace !== 'c')),
    );
    expect(boundIn(list, { namespaces: new Set(['none']) })).toEqual([]);
  });

  it('reads the pods with the given keys, in list order, duplicates included', () => {
    const twice = [...list, pod('a', 'one')];
    expect(keys(boundIn(twice, { keys: new Set(['b/five', 'a/one', 'x/unknown']) }))).toEqual([
      'a/one',
      'b/five',
      'a/one',
    ]);
  });

  it('indexes each list on its own', () => {
    const other = [pod('a', 'six')];
    expect(keys(boundIn(list, { namespaces: new Set(['a']) }))).toEqual(['a/one', 'a/three']);
    expect(keys(boundIn(other, { namespaces: new Set(['a']) }))).toEqual(['a/six']);
  });
});
