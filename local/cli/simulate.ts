// `kraftsman simulate`: what provisioning would do with the snapshot's pending pods (docs/contract.md).
import { simulateProvisioning, type ProvisioningResult } from '../../shared/provisioning/simulate.ts';
import type { CommandContext } from './command-context.ts';
import { table } from './table.ts';

export function run(ctx: CommandContext): { json: unknown; table: string } {
  const result = simulateProvisioning(ctx.snapshot, { upstream: ctx.args.upstream });
  return { json: toJson(result), table: render(result) };
}

function toJson(r: ProvisioningResult): unknown {
  return {
    pods: r.pods,
    nodeClaims: r.nodeClaims.map((c) => ({
      name: c.name,
      nodePool: c.nodePool,
      cloud: c.cloud,
      instanceTypes: c.instanceTypes,
      cheapest: c.cheapest,
      requirements: c.requirements,
      pods: c.pods,
      ...(c.gang ? { gang: c.gang } : {}),
    })),
    ...(r.provisioningRequests
      ? {
          provisioningRequests: r.provisioningRequests.map((q) => ({
            name: q.name,
            class: q.class,
            result: q.result,
            nodeClaims: q.nodeClaims,
            reason: q.reason,
          })),
        }
      : {}),
  };
}

function render(r: ProvisioningResult): string {
  const pods = table(
    ['POD', 'RESULT', 'WHERE / WHY'],
    r.pods.map((p) => [
      p.pod,
      p.result,
      p.result === 'existing' ? p.node : p.result === 'new' ? p.nodeClaim : p.reason,
    ]),
  );
  const claims = table(
    ['NODECLAIM', 'NODEPOOL', 'CLOUD', 'CHEAPEST', 'ZONE', 'CAPACITY', '$/H', 'TYPES', 'PODS'],
    r.nodeClaims.map((c) => [
      c.name,
      c.nodePool,
      c.cloud,
      c.cheapest?.instanceType ?? '-',
      c.cheapest?.zone ?? '-',
      c.cheapest?.capacityType ?? '-',
      c.cheapest ? c.cheapest.price.toFixed(4) : '-',
      String(c.instanceTypes.length),
      String(c.pods.length),
    ]),
  );
  const requests = r.provisioningRequests
    ? `\n\n${table(
        ['PROVISIONINGREQUEST', 'CLASS', 'RESULT', 'NODECLAIMS', 'REASON'],
        r.provisioningRequests.map((q) => [
          q.name,
          q.class,
          q.result,
          q.nodeClaims.join(',') || '-',
          q.reason,
        ]),
      )}`
    : '';
  return `${pods}\n\n${claims}${requests}\n`;
}
