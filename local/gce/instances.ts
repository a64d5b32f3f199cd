// Compute Engine instance mutations as zonal operations: insert, bulkInsert (minCount all or
// nothing), delete and preemption; effects apply when the operation completes.
import { checkDisks, checkMaintenance } from './instance-checks.ts';
import { checkBootImage } from './images.ts';
import { GceHttpError, instanceUrl, quotaExceeded } from './resources.ts';
import type { GceInstance, GceOperation, GceWorld, OperationErrorItem, ProvisioningModel } from './world.ts';
import { checkPlacement } from './placement.ts';

export interface Hooks {
  /** Called when an operation created an instance (PROVISIONING: the server moves it on and boots it). */
  created(i: GceInstance): void;
}

const EXHAUSTED = (zone: string, type: string) => ({
  code: 'ZONE_RESOURCE_POOL_EXHAUSTED',
  message: `The zone '${zone}' does not have enough resources available to fulfill the request. '(resource type:compute)'. (${type})`,
});

function modelOf(resource: Record<string, unknown>): ProvisioningModel {
  const scheduling = (resource.scheduling ?? {}) as { provisioningModel?: string };
  return scheduling.provisioningModel === 'SPOT' ? 'SPOT' : 'STANDARD';
}

function machineTypeName(world: GceWorld, zone: string, value: unknown): string {
  const name =
    String(value ?? '')
      .split('/')
      .pop() ?? '';
  const t = world.machineTypes.get(name);
  if (!t || !t.zones.includes(zone))
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'resource.machineType': '${String(value)}'. Machine type with name '${name}' does not exist in zone '${zone}'.`,
    );
  return name;
}

export function newOperation(
  world: GceWorld,
  zone: string,
  type: string,
  target: string,
  apply: GceOperation['apply'],
): GceOperation {
  const id = world.nextId();
  const op: GceOperation = {
    id,
    name: `operation-${id}`,
    zone,
    operationType: type,
    targetLink: target,
    insertTime: world.now().toISOString(),
    status: 'RUNNING',
    doneAt: Date.now() + world.faults.operationDelayMs,
    ...(apply ? { apply } : {}),
  };
  world.operations.set(op.name, op);
  return op;
}

/** Completes every operation whose time has come. */
export function settle(world: GceWorld): void {
  const now = Date.now();
  for (const op of world.operations.values()) {
    if (op.status === 'DONE' || op.doneAt > now) continue;
    const error = op.apply?.();
    op.status = 'DONE';
    if (error === undefined) continue;
    const errors: OperationErrorItem[] = Array.isArray(error) ? [...error] : [error as OperationErrorItem];
    op.error = { errors };
    op.httpErrorStatusCode = errors.some((e) => e.code === 'QUOTA_EXCEEDED')
      ? 403
      : errors.length === 0
        ? 500
        : 503;
  }
}

function create(
  world: GceWorld,
  hooks: Hooks,
  zone: string,
  name: string,
  type: string,
  model: ProvisioningModel,
  resource: Record<string, unknown>,
): void {
  world.consume(type, zone, model, 1);
  // Tag bindings are input only (params, instanceProperties): kept beside the instance, never echoed by a GET.
  const { params, resourceManagerTags, ...kept } = resource as {
    params?: { resourceManagerTags?: Record<string, string> };
    resourceManagerTags?: Record<string, string>;
  };
  const tags = params?.resourceManagerTags ?? resourceManagerTags;
  const instance: GceInstance = {
    id: world.nextId(),
    name,
    zone,
    machineType: type,
    provisioningModel: model,
    resource: { ...kept, name },
    ...(tags && Object.keys(tags).length > 0 ? { resourceManagerTags: { ...tags } } : {}),
    status: 'PROVISIONING',
    creationTimestamp: world.now().toISOString(),
    ...(world.faults.unlistedLists ? { unlisted: world.faults.unlistedLists } : {}),
  };
  world.instances.set(world.key(zone, name), instance);
  hooks.created(instance);
}

function checkName(world: GceWorld, zone: string, name: string): void {
  if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name))
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'resource.name': '${name}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
    );
  if (world.instances.has(world.key(zone, name)))
    throw new GceHttpError(
      409,
      'alreadyExists',
      `The resource 'projects/${world.project}/zones/${zone}/instances/${name}' already exists`,
    );
}

/** Compute Engine's label rules: at most 64; keys start with a lowercase letter; [a-z0-9_-], 63 characters. */
function checkLabels(labels: unknown): void {
  const entries = Object.entries((labels ?? {}) as Record<string, unknown>);
  const bad = (what: string, text: string): GceHttpError =>
    new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'resource.labels': ''. Label ${what} '${text}' violates format constraints. The ${what} must start with a lowercase character, can only contain lowercase letters, numeric characters, underscores and dashes. The ${what} can be at most 63 characters long. International characters are allowed.`,
    );
  if (entries.length > 64)
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'resource.labels': at most 64 labels are allowed`,
    );
  for (const [key, value] of entries) {
    if (!/^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u.test(key)) throw bad('key', key);
    if (typeof value !== 'string' || !/^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u.test(value))
      throw bad('value', String(value));
  }
}

/** Resource Manager tags bound at creation: keys `tagKeys/{id}`, values `tagValues/{id}` (400 otherwise). */
function checkTags(tags: unknown, field: string): void {
  if (tags === undefined || tags === null) return;
  if (typeof tags !== 'object' || Array.isArray(tags))
    throw new GceHttpError(400, 'invalid', `Invalid value for field '${field}': must be a map`);
  for (const [key, value] of Object.entries(tags as Record<string, unknown>)) {
    if (!/^tagKeys\/\d+$/.test(key))
      throw new GceHttpError(
        400,
        'invalid',
        `Invalid value for field '${field}': '${key}'. Tag keys must be in the format tagKeys/{tag_key_id}.`,
      );
    if (typeof value !== 'string' || !/^tagValues\/\d+$/.test(value))
      throw new GceHttpError(
        400,
        'invalid',
        `Invalid value for field '${field}': '${String(value)}'. Tag values must be in the format tagValues/{tag_value_id}.`,
      );
  }
}

function quota(world: GceWorld): void {
  const q = world.faults.quotaNext;
  if (!q) return;
  delete world.faults.quotaNext;
  throw quotaExceeded(q.metric, q.limit, world.region);
}

export function insert(
  world: GceWorld,
  hooks: Hooks,
  zone: string,
  resource: Record<string, unknown>,
): GceOperation {
  const name = String(resource.name ?? '');
  checkName(world, zone, name);
  checkLabels(resource.labels);
  checkTags(
    ((resource.params ?? {}) as { resourceManagerTags?: unknown }).resourceManagerTags,
    'resource.params.resourceManagerTags',
  );
  const type = machineTypeName(world, zone, resource.machineType);
  checkDisks(resource.disks, zone, 'resource.disks');
  checkMaintenance(world, type, resource);
  checkBootImage(world, type, resource.disks);
  checkPlacement(world, zone, type, resource.resourcePolicies, 1, 'resource.resourcePolicies');
  quota(world);
  const model = modelOf(resource);
  return newOperation(world, zone, 'insert', instanceUrl(world, zone, name), () => {
    const fault = world.faults.failNextOperation;
    if (fault) {
      delete world.faults.failNextOperation;
      return fault;
    }
    if (world.capacityLeft(type, zone, model) < 1) return EXHAUSTED(zone, type);
    create(world, hooks, zone, name, type, model, resource);
    return undefined;
  });
}

export function bulkInsert(
  world: GceWorld,
  hooks: Hooks,
  zone: string,
  body: Record<string, unknown>,
): GceOperation {
  const props = (body.instanceProperties ?? {}) as Record<string, unknown>;
  const count = Number(body.count ?? 0);
  const minCount = world.faults.ignoreMinCount ? 1 : Number(body.minCount ?? count);
  const names = Object.keys((body.perInstanceProperties ?? {}) as Record<string, unknown>);
  if (!Number.isInteger(count) || count < 1 || names.length !== count)
    throw new GceHttpError(
      400,
      'invalid',
      `bulkInsert needs count >= 1 and one perInstanceProperties entry per instance (count ${String(body.count)}, names ${names.length})`,
    );
  for (const n of names) checkName(world, zone, n);
  checkLabels(props.labels);
  checkTags(props.resourceManagerTags, 'resource.instanceProperties.resourceManagerTags');
  const type = machineTypeName(world, zone, props.machineType);
  checkDisks(props.disks, zone, 'resource.instanceProperties.disks');
  checkMaintenance(world, type, props);
  checkBootImage(world, type, props.disks);
  checkPlacement(
    world,
    zone,
    type,
    props.resourcePolicies,
    count,
    'resource.instanceProperties.resourcePolicies',
  );
  quota(world);
  const model = modelOf(props);
  return newOperation(world, zone, 'bulkInsert', `${instanceUrl(world, zone, names[0] ?? '')}`, () => {
    const fault = world.faults.failNextOperation;
    if (fault) {
      delete world.faults.failNextOperation;
      return fault;
    }
    const fits = Math.min(count, world.capacityLeft(type, zone, model));
    // minCount: fewer than this many instances means none at all (the gang guarantee).
    if (fits < minCount) return EXHAUSTED(zone, type);
    for (const n of names.slice(0, fits)) create(world, hooks, zone, n, type, model, props);
    return undefined;
  });
}

export function remove(world: GceWorld, zone: string, name: string, type = 'delete'): GceOperation {
  const instance = world.instances.get(world.key(zone, name));
  if (!instance)
    throw new GceHttpError(
      404,
      'notFound',
      `The resource 'projects/${world.project}/zones/${zone}/instances/${name}' was not found`,
    );
  instance.status = 'STOPPING';
  return newOperation(world, zone, type, instanceUrl(world, zone, name), () => {
    world.instances.delete(world.key(zone, name));
    world.consume(instance.machineType, zone, instance.provisioningModel, -1);
    return undefined;
  });
}

/** Preempts a Spot VM: records compute.instances.preempted and deletes it (instanceTerminationAction DELETE). */
export function preempt(world: GceWorld, zone: string, name: string): GceOperation {
  const instance = world.instances.get(world.key(zone, name));
  if (!instance || instance.provisioningModel !== 'SPOT')
    throw new Error(`GCE emulator: ${zone}/${name} is not a running Spot VM`);
  const op = newOperation(
    world,
    zone,
    'compute.instances.preempted',
    instanceUrl(world, zone, name),
    undefined,
  );
  op.status = 'DONE';
  const action = ((instance.resource.scheduling ?? {}) as { instanceTerminationAction?: string })
    .instanceTerminationAction;
  if (action === 'DELETE') world.instances.delete(world.key(zone, name));
  else instance.status = 'TERMINATED';
  return op;
}
