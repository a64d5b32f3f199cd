// Compute Engine instances as CloudInstances: names and labels kraftsman writes (GCE label rules:
// lowercase, [a-z0-9_-], at most 63 characters), provider IDs, status mapping.
import { createHash } from 'node:crypto';
import type { protos } from '@google-cloud/compute';
import {
  providerId,
  type CloudInstance,
  type InstanceState,
  type ProviderId,
} from '../../ports/cloud-provider/index.ts';
import { nodeClaimName, nodePoolName } from '../../model/names.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

export const LABEL_CLUSTER = 'kraftsman-cluster';
export const LABEL_NODEPOOL = 'kraftsman-nodepool';
export const LABEL_NODECLAIM = 'kraftsman-nodeclaim';
export const LABEL_GANG = 'kraftsman-gang';
/** This deployment's id (docs/mechanisms/identity.md#instances): two deployments sharing a cluster name differ here. */
export const LABEL_DEPLOYMENT = 'kraftsman-deployment';
export const META_NODECLAIM = 'kraftsman-nodeclaim';
export const META_IMAGE = 'kraftsman-image';

const short = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** A label value for any text: lowercased, invalid characters to '-', long values cut with a hash suffix. */
export function labelValue(text: string): string {
  const clean = text.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  return clean.length <= 63 ? clean : `${clean.slice(0, 54)}-${short(text)}`;
}

/** An instance name for a NodeClaim: RFC 1035, at most 63 characters, stable for the same claim. */
export function instanceName(claimName: string): string {
  let clean = claimName.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  if (!/^[a-z]/.test(clean)) clean = `k-${clean}`;
  if (clean.length > 63 || clean !== claimName)
    clean = `${clean.slice(0, 54).replace(/-+$/, '')}-${short(claimName)}`;
  return clean.replace(/-+$/, '');
}

export function gceProviderId(project: string, zone: string, name: string): ProviderId {
  return providerId(`gce://${project}/${zone}/${name}`);
}

export function parseGceProviderId(id: string): { project: string; zone: string; name: string } {
  const m = /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(id);
  if (!m)
    throw new Error(
      `not a Compute Engine provider ID: ${JSON.stringify(id)} (expected gce://<project>/<zone>/<name>)`,
    );
  return { project: m[1] as string, zone: m[2] as string, name: m[3] as string };
}

const lastSegment = (url: string | null | undefined): string => (url ?? '').split('/').pop() ?? '';

function stateOf(status: string | null | undefined): InstanceState {
  if (status === 'RUNNING') return 'running';
  if (status === 'PROVISIONING' || status === 'STAGING') return 'pending';
  if (status === 'TERMINATED') return 'terminated';
  return 'terminating';
}

export function metadataItem(i: Instance, key: string): string | undefined {
  return i.metadata?.items?.find((x) => x.key === key)?.value ?? undefined;
}

export function toCloudInstance(project: string, i: Instance): CloudInstance {
  const labels = Object.fromEntries(Object.entries(i.labels ?? {}).map(([k, v]) => [k, String(v)]));
  const zone = lastSegment(i.zone);
  // Gang members are named after their claim (bulkInsert cannot label instances one by one).
  const claim =
    metadataItem(i, META_NODECLAIM) ??
    labels[LABEL_NODECLAIM] ??
    (labels[LABEL_GANG] ? (i.name ?? undefined) : undefined);
  const image = metadataItem(i, META_IMAGE);
  return {
    providerId: gceProviderId(project, zone, i.name ?? ''),
    cloud: 'gcp',
    instanceType: labels['kraftsman-instance-type'] ?? lastSegment(i.machineType),
    zone,
    capacityType: i.scheduling?.provisioningModel === 'SPOT' ? 'spot' : 'on-demand',
    state: stateOf(i.status),
    ...(claim ? { nodeClaim: nodeClaimName(claim) } : {}),
    ...(labels[LABEL_NODEPOOL] ? { nodePool: nodePoolName(labels[LABEL_NODEPOOL]) } : {}),
    ...(image ? { imageId: image } : {}),
    ...(i.creationTimestamp ? { launchTime: new Date(i.creationTimestamp) } : {}),
    tags: labels,
  };
}
