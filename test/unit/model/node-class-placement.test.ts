// The placement fields of the node classes (docs/node-classes.md): EC2NodeClass placementGroupSelector (Karpenter
// v1.14: exactly one of name or id) and GCENodeClass compactPlacementPolicy (a resource policy name); a bad one is
// refused naming the node class and the field.
import { describe, expect, it } from 'vitest';
import { placesGangsInOneZone, type NodeClass } from '../../../shared/model/nodeclass.ts';
import { recognize } from '../../../shared/state/recognize.ts';

const ec2 = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'gpu' },
  spec: { amiSelectorTerms: [{ alias: 'al2023@latest' }], ...spec },
});
const gce = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.gcp/v1alpha1',
  kind: 'GCENodeClass',
  metadata: { name: 'tpu' },
  spec: { imageSelectorTerms: [{ alias: 'cos' }], ...spec },
});

function read(value: unknown): NodeClass | string {
  try {
    return recognize([{ source: 'classes.yaml', value }]).objects.nodeClasses[0] as NodeClass;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('node class placement fields', () => {
  it.each([
    [
      ec2({ placementGroupSelector: {} }),
      /EC2NodeClass gpu: spec\.placementGroupSelector.*exactly one of name or id/s,
    ],
    [
      ec2({ placementGroupSelector: { name: 'pg', id: 'pg-0123456789abcdef0' } }),
      /spec\.placementGroupSelector.*exactly one of name or id/s,
    ],
    [ec2({ placementGroupSelector: { id: 'train' } }), /spec\.placementGroupSelector\.id.*pg-/s],
    [
      ec2({ placementGroupSelector: { name: 'pg', strategy: 'cluster' } }),
      /spec\.placementGroupSelector\.strategy is not implemented/,
    ],
    [
      gce({ compactPlacementPolicy: 'Bad_Name' }),
      /GCENodeClass tpu: spec\.compactPlacementPolicy.*resource policy name/s,
    ],
  ])('refuses %j', (value, why) => {
    expect(read(value)).toMatch(why);
  });

  it.each([
    [ec2({ placementGroupSelector: { name: 'train-pg' } }), true],
    [ec2({ placementGroupSelector: { id: 'pg-0123456789abcdef0' } }), true],
    [gce({ compactPlacementPolicy: 'train-compact' }), true],
    [ec2({}), false],
    [gce({}), false],
  ])('accepts %j and reads whether its gangs go in one zone', (value, oneZone) => {
    const nc = read(value);
    expect(typeof nc).not.toBe('string');
    expect(placesGangsInOneZone(nc as NodeClass)).toBe(oneZone);
  });
});
