// JSON shapes the Compute Engine emulator answers with (instances, operations, errors), as the REST
// API writes them: zone and machine type as full URLs, errors as {error:{code,message,errors[]}}.
import type { GceInstance, GceOperation, GceWorld } from './world.ts';

export const BASE = 'https://www.googleapis.com/compute/v1';

export class GceHttpError extends Error {
  override name = 'GceHttpError';
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorBody(e: GceHttpError): unknown {
  return {
    error: {
      code: e.status,
      message: e.message,
      errors: [{ message: e.message, domain: 'global', reason: e.reason }],
    },
  };
}

export const zoneUrl = (w: GceWorld, zone: string): string => `${BASE}/projects/${w.project}/zones/${zone}`;
export const instanceUrl = (w: GceWorld, zone: string, name: string): string =>
  `${zoneUrl(w, zone)}/instances/${name}`;

export function instanceJson(w: GceWorld, i: GceInstance): Record<string, unknown> {
  return {
    ...i.resource,
    kind: 'compute#instance',
    id: i.id,
    name: i.name,
    zone: zoneUrl(w, i.zone),
    machineType: `${zoneUrl(w, i.zone)}/machineTypes/${i.machineType}`,
    status: i.status,
    creationTimestamp: i.creationTimestamp,
    selfLink: instanceUrl(w, i.zone, i.name),
  };
}

export function operationJson(w: GceWorld, op: GceOperation): Record<string, unknown> {
  return {
    kind: 'compute#operation',
    id: op.id,
    name: op.name,
    zone: zoneUrl(w, op.zone),
    operationType: op.operationType,
    targetLink: op.targetLink,
    status: op.status,
    progress: op.status === 'DONE' ? 100 : 0,
    insertTime: op.insertTime,
    selfLink: `${zoneUrl(w, op.zone)}/operations/${op.name}`,
    ...(op.error ? { error: op.error, httpErrorStatusCode: 503 } : {}),
  };
}
