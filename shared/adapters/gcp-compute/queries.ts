// Reads and deletes as the provider uses them: live instances of the cluster (aggregated list by
// label), one instance (gone once STOPPING), deletions with request ids.
import { createHash } from 'node:crypto';
import type { protos } from '@google-cloud/compute';
import { InstanceNotFoundError } from '../../ports/cloud-provider/errors.ts';
import { type CloudInstance } from '../../ports/cloud-provider/index.ts';
import type { GceContext } from './gce-context.ts';
import {
  LABEL_CLUSTER,
  LABEL_DEPLOYMENT,
  labelValue,
  parseGceProviderId,
  toCloudInstance,
} from './instances.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

/** A request id is a UUID; derived from what identifies the attempt so a retried call is the same request. */
export function requestId(parts: readonly string[]): string {
  const h = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Live instances labelled with this cluster and this deployment (the filter, then the same check in code). */
export async function listClusterInstances(ctx: GceContext, deployment: string): Promise<CloudInstance[]> {
  const out: CloudInstance[] = [];
  const cluster = labelValue(ctx.config.clusterName);
  const dep = labelValue(deployment);
  const filter = `(labels.${LABEL_CLUSTER} = "${cluster}") (labels.${LABEL_DEPLOYMENT} = "${dep}")`;
  await ctx.call('instances.aggregatedList', async () => {
    out.length = 0;
    // The async iterator pages by itself; autoPaginate false only keeps gax from warning about it.
    const pages = ctx.clients.instances.aggregatedListAsync(
      { project: ctx.config.project, filter },
      { autoPaginate: false },
    );
    for await (const [, scoped] of pages) {
      for (const i of scoped.instances ?? []) {
        const c = toCloudInstance(ctx.config.project, i);
        const ours = c.tags[LABEL_CLUSTER] === cluster && c.tags[LABEL_DEPLOYMENT] === dep;
        if (ours && (c.state === 'pending' || c.state === 'running')) out.push(c);
      }
    }
  });
  return out;
}

/** One instance as the API holds it, whatever its status (InstanceNotFoundError when there is none). */
export async function readInstance(ctx: GceContext, zone: string, name: string): Promise<Instance> {
  const project = ctx.config.project;
  const [instance] = await ctx.call('instances.get', () =>
    ctx.clients.instances.get({ project, zone, instance: name }),
  );
  return instance;
}

export const isGone = (i: Instance): boolean => i.status === 'STOPPING' || i.status === 'TERMINATED';

/** STOPPING or TERMINATED counts as gone: kraftsman never stops instances, it only deletes them. */
export async function getRawInstance(ctx: GceContext, zone: string, name: string): Promise<Instance> {
  const project = ctx.config.project;
  const instance = await readInstance(ctx, zone, name);
  if (isGone(instance))
    throw new InstanceNotFoundError(
      `Compute Engine instance ${zone}/${name} is terminating`,
      `gce://${project}/${zone}/${name}`,
    );
  return instance;
}

/** Starts deletion (not awaited: the instance reports STOPPING at once). */
export async function deleteInstance(
  ctx: GceContext,
  zone: string,
  name: string,
  idParts: readonly string[],
): Promise<void> {
  await ctx.call('instances.delete', () =>
    ctx.clients.instances.delete({
      project: ctx.config.project,
      zone,
      instance: name,
      requestId: requestId(idParts),
    }),
  );
}

export async function deleteAll(ctx: GceContext, instances: readonly CloudInstance[]): Promise<void> {
  for (const i of instances) {
    const { zone, name } = parseGceProviderId(i.providerId);
    await deleteInstance(ctx, zone, name, ['cleanup', i.providerId, String(i.launchTime?.getTime() ?? '')]);
  }
}
