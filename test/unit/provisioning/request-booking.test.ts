// Booked ProvisioningRequests (docs/mechanisms/provisioning-requests.md, "Booking"): which requests hold capacity,
// how many of their pods (real consuming pods stand for the rest), where the held pods sit, which nodes are booked.
import { describe, expect, it } from 'vitest';
import { bookedNodes, bookings, holdBookings } from '../../../shared/provisioning/request-booking.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { catalog, node, nodePool, pod } from '../../fixtures/builders/index.ts';

const CHECK = 'check-capacity.autoscaling.x-k8s.io';
const NOW = new Date('2026-09-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

const template = (cpu: string) => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 't', namespace: 'ml' },
  template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu, memory: '1Gi' } } }] } },
});
const request = (name: string, count: number, provisionedMinutesAgo?: number) => ({
  apiVersion: 'autoscaling.x-k8s.io/v1',
  kind: 'ProvisioningRequest',
  metadata: { name, namespace: 'ml', creationTimestamp: minutesAgo(30) },
  spec: { provisioningClassName: CHECK, podSets: [{ podTemplateRef: { name: 't' }, count }] },
  ...(provisionedMinutesAgo === undefined
    ? {}
    : {
        status: {
          conditions: [
            {
              type: 'Provisioned',
              status: 'True',
              reason: 'CapacityIsFound',
              message: 'm',
              lastTransitionTime: minutesAgo(provisionedMinutesAgo),
            },
          ],
        },
      }),
});
const n = (name: string) =>
  node(name, { pool: 'default', type: 's-16', allocatable: { cpu: '16', memory: '64Gi', pods: '110' } });

function snapshotOf(objects: Record<string, unknown>[]) {
  const { objects: parsed } = recognize(objects.map((value) => ({ source: 'test', value })));
  return buildSnapshot(parsed, buildInstanceTypes(catalog()));
}

describe('bookings', () => {
  it('holds a request provisioned less than 10 minutes ago, not one never provisioned or provisioned 11 minutes ago', () => {
    const s = snapshotOf([
      nodePool(),
      template('4'),
      request('fresh', 2, 9),
      request('old', 2, 11),
      request('new', 2),
    ]);
    const b = bookings(s.objects, NOW);
    expect(b.map((x) => [x.key, x.pods.length])).toEqual([['ml/fresh', 2]]);
  });

  it('a live consuming pod stands for one of the request’s pods; a finished one does not', () => {
    const consumer = (name: string, phase: string) =>
      pod(name, {
        ns: 'ml',
        annotations: { 'autoscaling.x-k8s.io/consume-provisioning-request': 'job' },
        status: { phase },
      });
    const s = snapshotOf([
      nodePool(),
      template('4'),
      request('job', 3, 1),
      consumer('a', 'Pending'),
      consumer('b', 'Succeeded'),
    ]);
    expect(bookings(s.objects, NOW).map((x) => x.pods.length)).toEqual([2]);
  });
});

describe('holding the booked pods', () => {
  it('binds them where they fit, so the node has that much less room', () => {
    const s = snapshotOf([nodePool(), n('n1'), template('6'), request('job', 2, 1)]);
    const held = holdBookings(s, bookings(s.objects, NOW));
    expect([...held.nodes]).toEqual([['n1', ['ml/job']]]);
    const n1 = held.snapshot.nodes.find((x) => x.name === 'n1');
    expect(n1?.pods.map((p) => p.metadata.name)).toEqual(['job-0-0', 'job-0-1']);
    expect(n1?.podRequests.cpu).toBe(12_000);
  });

  it('changes nothing when no request is booked', () => {
    const s = snapshotOf([nodePool(), n('n1'), template('6'), request('job', 2)]);
    expect(holdBookings(s, bookings(s.objects, NOW)).snapshot).toBe(s);
    expect(bookedNodes(s, NOW)).toEqual(new Set());
  });

  it('books the nodes the held pods sit on, and no longer once the booking ran out', () => {
    const objects = [nodePool(), n('n1'), n('n2'), template('6'), request('job', 2, 1)];
    expect(bookedNodes(snapshotOf(objects), NOW)).toEqual(new Set(['n1']));
    const later = new Date(NOW.getTime() + 10 * 60_000);
    expect(bookedNodes(snapshotOf(objects), later)).toEqual(new Set());
  });

  it('books the nodes of the claims an atomic request opened, wherever its held pods sit', () => {
    const claimed = (name: string, request: string) => ({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: {
        name: `claim-${name}`,
        creationTimestamp: '2026-09-01T08:00:00Z',
        labels: { 'karpenter.sh/nodepool': 'default' },
        annotations: { 'kraftsman.dev/provisioning-request': request },
      },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
      status: { nodeName: name, conditions: [{ type: 'Initialized', status: 'True' }] },
    });
    const objects = [
      nodePool(),
      n('n1'),
      n('n2'),
      n('n3'),
      claimed('n2', 'ml/job'),
      claimed('n3', 'ml/other'),
      template('6'),
      request('job', 1, 1),
    ];
    expect([...bookedNodes(snapshotOf(objects), NOW)].sort()).toEqual(['n1', 'n2']);
  });
});
