// Karpenter v1.14's volume rules (issue 35), through the same path as `kraftsman simulate`, in both modes:
// ephemeral volumes, invalid volumes, node-local PVs, topology alternatives and attach limits.
import { describe, expect, it } from 'vitest';
import { node, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

type Obj = Record<string, unknown>;
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
const MODES = [false, true] as const;

const storageClass = (name: string, extra: Obj = {}): Obj => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'ebs.csi.aws.com',
  volumeBindingMode: 'WaitForFirstConsumer',
  ...extra,
});
const zones = (...terms: string[][]) => ({
  allowedTopologies: terms.map((values) => ({ matchLabelExpressions: [{ key: ZONE, values }] })),
});
const pvc = (name: string, spec: Obj, metadata: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default', ...metadata },
  spec,
});
const pv = (name: string, terms: Obj[][], spec: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: {
    csi: { driver: 'ebs.csi.aws.com' },
    nodeAffinity: {
      required: { nodeSelectorTerms: terms.map((matchExpressions) => ({ matchExpressions })) },
    },
    ...spec,
  },
});
const inZones = (...values: string[]) => ({ key: ZONE, operator: 'In', values });
const withClaim = (name: string, claimName: string, extra: Obj = {}) =>
  pod(name, {
    cpu: '100m',
    ...extra,
    spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName } }] },
  });
const ephemeral = (name: string, storageClassName?: string) =>
  pod(name, {
    spec: {
      volumes: [
        {
          name: 'scratch',
          ephemeral: { volumeClaimTemplate: { spec: storageClassName ? { storageClassName } : {} } },
        },
      ],
    },
  });

describe('ephemeral volumes', () => {
  // pkg/utils/volume GetPersistentVolumeClaim: an ephemeral volume is the PVC <pod>-<volume>, and
  // volumetopology.go getRequirements gives it its StorageClass's zones as for a named claim
  for (const upstream of MODES)
    it(`take the zones of the claim <pod>-<volume> (upstream: ${upstream})`, () => {
      const objs = [nodePool(), storageClass('zonal', zones(['us-east-1c'])), ephemeral('job', 'zonal')];
      const claim = pvc('job-scratch', { storageClassName: 'zonal' });
      expect(simulate([...objs, claim], { upstream }).zoneOf('job')).toBe('us-east-1c');
    });

  // GetPersistentVolumeClaim finds no claim before the ephemeral controller created it: validation fails, and the
  // provisioner leaves the pod out until the claim exists (a guess at its class could launch in the wrong zone)
  for (const upstream of MODES)
    it(`leave a pod out while its claim <pod>-<volume> is not created yet (upstream: ${upstream})`, () => {
      const objs = [nodePool(), storageClass('zonal', zones(['us-east-1c'])), ephemeral('job', 'zonal')];
      const s = simulate(objs, { upstream });
      expect(s.pods).toEqual([
        {
          pod: 'default/job',
          result: 'ignored',
          reason: expect.stringMatching(/persistentvolumeclaim default\/job-scratch not found/),
        },
      ]);
      expect(s.nodeClaims).toEqual([]);
    });
});

describe('invalid volumes keep a pod out of provisioning', () => {
  // volumetopology.go ValidatePersistentVolumeClaims, called from Provisioner.Validate in GetPendingPods:
  // the provisioner ignores such a pod with the reason
  const cases: [string, Obj[], RegExp][] = [
    ['a missing claim', [], /persistentvolumeclaim default\/data not found/],
    ['an unbound claim of class ""', [pvc('data', { storageClassName: '' })], /must define a storage class/],
    ['an unbound claim of a class not in the snapshot', [pvc('data', { storageClassName: 'gone' })], /gone/],
    [
      'an unbound claim of an Immediate class',
      [pvc('data', { storageClassName: 'now' }), storageClass('now', { volumeBindingMode: 'Immediate' })],
      /immediate volume binding mode must be bound/,
    ],
  ];
  for (const upstream of MODES)
    for (const [what, objs, reason] of cases)
      it(`ignores a pod with ${what} (upstream: ${upstream})`, () => {
        const s = simulate([nodePool(), ...objs, withClaim('db', 'data')], { upstream });
        expect(s.pods).toEqual([
          { pod: 'default/db', result: 'ignored', reason: expect.stringMatching(reason) },
        ]);
        expect(s.nodeClaims).toEqual([]);
      });
});

describe('PersistentVolume topology', () => {
  const bound = (name: string, volumeName: string) => pvc(name, { volumeName, storageClassName: 'zonal' });

  // volumetopology.go getPersistentVolumeRequirements: a local or hostPath PV drops its hostname requirement
  for (const upstream of MODES)
    it(`drops a local PV's hostname term and keeps its zone (upstream: ${upstream})`, () => {
      const local = pv(
        'pv-local',
        [[{ key: HOSTNAME, operator: 'In', values: ['gone'] }, inZones('us-east-1c')]],
        {
          local: { path: '/mnt/disk' },
        },
      );
      const s = simulate([nodePool(), bound('data', 'pv-local'), local, withClaim('db', 'data')], {
        upstream,
      });
      expect(s.zoneOf('db')).toBe('us-east-1c');
    });

  it("drops a hostPath PV's hostname-only term, leaving the pod unconstrained", () => {
    const hostPath = pv('pv-hp', [[{ key: HOSTNAME, operator: 'In', values: ['gone'] }]], {
      hostPath: { path: '/data' },
    });
    const s = simulate([nodePool(), bound('data', 'pv-hp'), hostPath, withClaim('db', 'data')]);
    expect(s.placement('db')).toBe('new-1');
  });

  // each nodeSelectorTerm, and each allowedTopologies term, is an alternative (OR), tried in order where the pod
  // is placed (ExistingNode.CanAdd and NodeClaim.CanAdd try every alternative)
  for (const upstream of MODES)
    it(`treats a PV's node selector terms as alternatives (upstream: ${upstream})`, () => {
      const twoZones = pv('pv-2', [[inZones('us-east-1b')], [inZones('us-east-1c')]]);
      const objs = [nodePool(), bound('data', 'pv-2'), twoZones, withClaim('db', 'data')];
      expect(simulate(objs, { upstream }).zoneOf('db')).toBe('us-east-1b');
      const inC = node('c1', { pool: 'default', zone: 'us-east-1c', type: 's-4' });
      expect(simulate([...objs, inC], { upstream }).placement('db')).toBe('c1');
    });

  for (const upstream of MODES)
    it(`treats a StorageClass's allowedTopologies terms as alternatives (upstream: ${upstream})`, () => {
      const sc = storageClass('zonal', zones(['us-east-1b'], ['us-east-1c']));
      const objs = [nodePool(), sc, pvc('data', { storageClassName: 'zonal' }), withClaim('db', 'data')];
      expect(simulate(objs, { upstream }).zoneOf('db')).toBe('us-east-1b');
      const inC = node('c1', { pool: 'default', zone: 'us-east-1c', type: 's-4' });
      expect(simulate([...objs, inC], { upstream }).placement('db')).toBe('c1');
    });
});

describe('attach limits count distinct volumes', () => {
  // scheduling/volumeusage.go: VolumeUsage keeps a set of PVC keys per driver and ExceedsLimits counts the union
  // with the pod's, so a claim the node already attaches takes no second attachment
  const csiNode = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name: 'n1' },
    spec: { drivers: [{ name: 'ebs.csi.aws.com', allocatable: { count: 1 } }] },
  };
  const volume = (name: string) => [pvc(name, { volumeName: `pv-${name}` }), pv(`pv-${name}`, [])];
  const fleet = [
    nodePool(),
    csiNode,
    node('n1', { pool: 'default', type: 's-16' }),
    ...volume('shared'),
    ...volume('other'),
    withClaim('running', 'shared', { node: 'n1' }),
  ];

  for (const upstream of MODES)
    it(`lets a pod share a claim the node already attaches at its limit (upstream: ${upstream})`, () => {
      const s = simulate([...fleet, withClaim('mate', 'shared'), withClaim('stranger', 'other')], {
        upstream,
      });
      expect(s.placement('mate')).toBe('n1');
      expect(s.placement('stranger')).not.toBe('n1');
    });
});
