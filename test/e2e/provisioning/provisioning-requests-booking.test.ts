// check-capacity ProvisioningRequests and their booking through the handlers, on both clouds
// (docs/mechanisms/provisioning-requests.md, "Booking"): a request that fits an existing node is Provisioned=True
// CapacityIsFound and books that capacity for 10 minutes — a later request and an ordinary pending pod cannot take
// it, consolidate skips the node (`provisioning-request`) — then BookingExpired=True, the waiting request gets the
// capacity, and once its booking runs out too the node is consolidated.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import {
  emptyGpuNode,
  GPU_NODE_SHAPES,
  runConsolidate,
  wireDisruption,
  withBudget,
} from '../../support/e2e/disruption-handlers.ts';
import { nodePool, pod, startHarness, type E2eHarness } from '../../support/e2e/index.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';
import { conditionsOf, gpuTemplate, provisioningRequest } from '../../support/e2e/provisioning-requests.ts';

const CHECK = 'check-capacity.autoscaling.x-k8s.io';
const CLOUDS = GPU_NODE_SHAPES;
const gpuNode = emptyGpuNode;

describe.each(['aws', 'gcp'] as const)('check-capacity ProvisioningRequests on %s', (cloud) => {
  let h: E2eHarness;
  const c = CLOUDS[cloud];
  beforeEach(async () => {
    h = await startHarness({
      objects: [withBudget(nodePool(c.pool, cloud, { instanceTypes: [c.type] }), '100%')],
    });
    wireDisruption(h);
    h.seed([gpuTemplate('worker', cloud, 1)]);
  });
  afterEach(async () => {
    await h?.close();
  });

  it('with no node to fit: Provisioned=False CapacityIsNotFound and nothing launched, although a NodePool could', async () => {
    h.seed([provisioningRequest('check', CHECK, 'worker', 1)]);
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({
      outcome: 'ran',
      requestsAnswered: 1,
      claimsCreated: 0,
      launchesInvoked: 0,
    });
    expect(h.list('NodeClaim')).toEqual([]);
    expect(conditionsOf(h, 'check').Provisioned).toMatchObject({
      status: 'False',
      reason: 'CapacityIsNotFound',
    });
  });

  it('books the node it fits for 10 minutes: kept from a later request, a pending pod and consolidation; then BookingExpired and consolidated', async () => {
    h.seed([gpuNode(cloud, 'spare'), provisioningRequest('check', CHECK, 'worker', 1)]);
    h.clock.advance(5 * 60_000); // the node's consolidateAfter has passed
    expect((await provisionOnce(h)).result).toMatchObject({ requestsAnswered: 1, claimsCreated: 0 });
    expect(conditionsOf(h, 'check').Provisioned).toMatchObject({ status: 'True', reason: 'CapacityIsFound' });

    // the booked GPU is not there for a later request
    h.seed([provisioningRequest('later', CHECK, 'worker', 1)]);
    await provisionOnce(h);
    expect(conditionsOf(h, 'later').Provisioned).toMatchObject({
      status: 'False',
      reason: 'CapacityIsNotFound',
    });

    // consolidation leaves the booked node alone, saying why
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 0 });
    expect(
      h.metrics.total(KRAFTSMAN_METRICS.candidateSkipsTotal, {
        reason: 'provisioning-request',
        nodepool: c.pool,
      }),
    ).toBeGreaterThan(0);
    expect(h.list('Node').map((n) => n.metadata.name)).toContain('spare');

    // the reservation time runs out: BookingExpired, and the node is an empty node like any other
    h.clock.advance(10 * 60_000 + 1_000);
    await provisionOnce(h);
    expect(conditionsOf(h, 'check').BookingExpired).toMatchObject({
      status: 'True',
      reason: 'CapacityReservationTimeExpired',
    });
    expect(conditionsOf(h, 'check').Provisioned).toMatchObject({ status: 'True', reason: 'CapacityIsFound' });
    // the released GPU goes to the request that waited for it (Provisioned=False is answered again after 1 min)
    expect(conditionsOf(h, 'later').Provisioned).toMatchObject({ status: 'True', reason: 'CapacityIsFound' });
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 0 });
    h.clock.advance(10 * 60_000 + 1_000);
    await provisionOnce(h);
    expect(conditionsOf(h, 'later').BookingExpired).toMatchObject({ status: 'True' });
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 1 });
  });

  it('an ordinary pending pod does not take the booked capacity: it gets a claim of its own', async () => {
    h.seed([gpuNode(cloud, 'spare'), provisioningRequest('check', CHECK, 'worker', 1)]);
    await provisionOnce(h);
    expect(conditionsOf(h, 'check').Provisioned).toMatchObject({ status: 'True' });
    h.seed([pod('other', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': cloud } })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
  });
});
