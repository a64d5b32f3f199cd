// The instance body for instances.insert / bulkInsert: GPUs (bundled A2/A3/G2 or attached to N1),
// Spot with DELETE on termination, TERMINATE on host maintenance for GPUs, labels, startup-script, and the
// deployment's Resource Manager tag (what an IAM condition can see; labels it cannot).
import type { protos } from '@google-cloud/compute';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { GCENodeClass } from '../../model/nodeclass.ts';
import type { LaunchOption } from '../../model/launch-options.ts';
import { claimNodePool } from '../../model/launch-options.ts';
import { renderStartupScript } from '../../provisioning/gce-startup.ts';
import { machineHasGpu, type ResolvedGceImage } from '../../model/gce-images.ts';
import { CLOUD_PLATFORM_SCOPE } from '../../model/nodeclass-gce.ts';
import { attachedDisks } from './disks.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import {
  LABEL_CLUSTER,
  LABEL_NODECLAIM,
  LABEL_NODEPOOL,
  META_IMAGE,
  META_NODECLAIM,
  labelValue,
} from './instances.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;
type InstanceProperties = protos.google.cloud.compute.v1.IInstanceProperties;

/** A Resource Manager tag as Compute Engine binds it at creation: `tagKeys/{id}` → `tagValues/{id}`. */
export interface DeploymentTag {
  readonly key: string;
  readonly value: string;
}

/**
 * bulkInsert's instanceProperties from an insert body: the machine type by name, and the tag bindings at
 * `instanceProperties.resourceManagerTags` (InstanceProperties has no `params`).
 */
export function instanceProperties(body: Instance): InstanceProperties {
  const { params, ...rest } = body;
  const tags = params?.resourceManagerTags;
  return {
    ...(rest as InstanceProperties),
    machineType: String(body.machineType).split('/').pop() ?? null,
    // An instance template's shape names disk types, not their zonal URLs (InstanceProperties' AttachedDisk).
    ...(body.disks
      ? {
          disks: body.disks.map((d) =>
            d.initializeParams?.diskType
              ? {
                  ...d,
                  initializeParams: {
                    ...d.initializeParams,
                    diskType: d.initializeParams.diskType.split('/').pop() ?? null,
                  },
                }
              : d,
          ),
        }
      : {}),
    ...(tags ? { resourceManagerTags: tags } : {}),
  };
}

/** `n1-standard-8_nvidia-tesla-t4_2` = machine type n1-standard-8 with two attached T4s; other names are machine types. */
export function parseInstanceType(name: string): {
  machineType: string;
  accelerator?: { type: string; count: number };
} {
  const [machineType = name, type, count] = name.split('_');
  return type && count ? { machineType, accelerator: { type, count: Number(count) } } : { machineType };
}

/** Compute Engine's label rules (checked before the call: a 400 after a launch attempt helps nobody). */
const LABEL_KEY = /^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u;
const LABEL_VALUE = /^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u;
export const MAX_LABELS = 64;

export class InvalidLabelError extends Error {
  override name = 'InvalidLabelError' as const;
}

/** Every label problem at once, naming the node class and the label; nothing when all are valid. */
export function labelProblems(labels: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const entries = Object.entries(labels);
  if (entries.length > MAX_LABELS)
    problems.push(`${entries.length} labels, more than Compute Engine's ${MAX_LABELS}`);
  for (const [key, value] of entries) {
    if (!LABEL_KEY.test(key))
      problems.push(
        `label key ${JSON.stringify(key)} must start with a lowercase letter and hold at most 63 lowercase letters, digits, '_' or '-'`,
      );
    if (!LABEL_VALUE.test(value))
      problems.push(
        `label ${key}: value ${JSON.stringify(value)} must hold at most 63 lowercase letters, digits, '_' or '-'`,
      );
  }
  return problems;
}

export function instanceBody(args: {
  cluster: string;
  project: string;
  zone: string;
  option: LaunchOption;
  claim: NodeClaim;
  nodeClass: GCENodeClass;
  /** The image this machine type boots (shared/model/gce-images.ts), resolved per launch. */
  image: ResolvedGceImage;
  extraLabels?: Record<string, string>;
  claimMetadata: boolean;
  deploymentTag?: DeploymentTag | undefined;
  join?: JoinToken | undefined;
}): Instance {
  const { option, claim, nodeClass } = args;
  const spec = nodeClass.spec;
  const { machineType, accelerator } = parseInstanceType(option.instanceType);
  const gpu = accelerator !== undefined || machineHasGpu(machineType);
  const spot = option.capacityType === 'spot';
  const pool = claimNodePool(claim);
  const script = renderStartupScript({
    cluster: args.cluster,
    claim,
    nodeClass,
    image: args.image,
    ...(args.join ? { join: args.join } : {}),
  });
  const labels = {
    ...(spec.labels ?? {}),
    [LABEL_CLUSTER]: labelValue(args.cluster),
    'kraftsman-instance-type': labelValue(option.instanceType),
    ...(pool ? { [LABEL_NODEPOOL]: labelValue(pool) } : {}),
    ...(args.claimMetadata ? { [LABEL_NODECLAIM]: labelValue(claim.metadata.name) } : {}),
    ...(args.extraLabels ?? {}),
  };
  const problems = labelProblems(labels);
  if (problems.length > 0)
    throw new InvalidLabelError(`GCENodeClass ${nodeClass.metadata.name}: ${problems.join('; ')}`);
  return {
    machineType: `zones/${args.zone}/machineTypes/${machineType}`,
    labels,
    metadata: {
      items: [
        ...Object.entries(spec.metadata ?? {}).map(([key, value]) => ({ key, value })),
        { key: 'startup-script', value: script },
        { key: META_IMAGE, value: args.image.image },
        ...(args.claimMetadata ? [{ key: META_NODECLAIM, value: claim.metadata.name }] : []),
      ],
    },
    // Spot VMs are deleted, not stopped, when preempted (a stopped GPU VM would still hold a NodeClaim);
    // GPU VMs cannot live-migrate, so host maintenance terminates them.
    scheduling: spot
      ? {
          provisioningModel: 'SPOT',
          instanceTerminationAction: 'DELETE',
          onHostMaintenance: 'TERMINATE',
          automaticRestart: false,
        }
      : {
          provisioningModel: 'STANDARD',
          onHostMaintenance: gpu ? 'TERMINATE' : 'MIGRATE',
          automaticRestart: true,
        },
    ...(accelerator
      ? {
          guestAccelerators: [
            {
              acceleratorType: `projects/${args.project}/zones/${args.zone}/acceleratorTypes/${accelerator.type}`,
              acceleratorCount: accelerator.count,
            },
          ],
        }
      : {}),
    disks: attachedDisks(spec.disks, args.zone, args.image.image),
    networkInterfaces: [{ ...(spec.subnetwork ? { subnetwork: spec.subnetwork } : {}) }],
    ...(spec.serviceAccount
      ? {
          serviceAccounts: [
            {
              email: spec.serviceAccount,
              scopes: [...(spec.serviceAccountScopes ?? [CLOUD_PLATFORM_SCOPE])],
            },
          ],
        }
      : {}),
    ...(spec.networkTags?.length ? { tags: { items: spec.networkTags } } : {}),
    // the node class's compact placement: a regional resource policy of the zone's region (docs/node-classes.md)
    ...(spec.compactPlacementPolicy
      ? {
          resourcePolicies: [
            `projects/${args.project}/regions/${regionOf(args.zone)}/resourcePolicies/${spec.compactPlacementPolicy}`,
          ],
        }
      : {}),
    // Bound at creation, so an IAM condition on it covers the instance from its first moment (docs/deploy.md).
    ...(args.deploymentTag
      ? { params: { resourceManagerTags: { [args.deploymentTag.key]: args.deploymentTag.value } } }
      : {}),
  };
}

/** A zone's region: `us-central1-a` → `us-central1`. */
function regionOf(zone: string): string {
  return zone.slice(0, zone.lastIndexOf('-'));
}
