// The bound-pod index topology counts from: only the pods a group can count, in their order in the list
// (a hostname group's domain order follows it), and the same answer as a scan of the whole list.
import { describe, expect, it } from 'vitest';
import { boundIn } from '../../../shared/scheduling/bound-index.ts';
import type { LabelSelector } from '../../../shared/model/meta.ts';
import { compileSelector, selectorAnchor } from '../../../shared/scheduling/selector.ts';
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

  it('reads only the pods carrying an anchor label, the same as filtering by the selector', () => {
    const labelled = [...list, { ...pod('a', 'x'), labels: { app: 'one', tier: 'web' } }];
    const namespaces = new Set(['a', 'b']);
    const selectors: LabelSelector[] = [
      { matchLabels: { app: 'one' } },
      { matchExpressions: [{ key: 'app', operator: 'In', values: ['two'] }] },
      { matchLabels: { tier: 'web', app: 'one' } },
    ];
    for (const selector of selectors) {
      const anchor = selectorAnchor(selector);
      expect(anchor).toBeDefined();
      const selects = compileSelector(selector);
      const expected = labelled.filter((p) => namespaces.has(p.namespace) && selects(p.labels));
      const read = boundIn(labelled, { namespaces, anchor }).filter((p) => selects(p.labels));
      expect(keys(read)).toEqual(keys(expected));
    }
  });

  it('names no anchor when the selector has no single required label', () => {
    expect(selectorAnchor(undefined)).toBeUndefined();
    expect(selectorAnchor({})).toBeUndefined();
    expect(
      selectorAnchor({ matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] }),
    ).toBeUndefined();
    expect(
      selectorAnchor({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['a'] }] }),
    ).toBeUndefined();
  });
});
