// Compact placement policies as Compute Engine checks them on insert and bulkInsert: `resourcePolicies` names
// regional resource policies (`projects/P/regions/R/resourcePolicies/N`); an unknown one is 404 notFound, one of
// another region is refused, a COLLOCATED policy refuses machine series it does not support and more VMs than
// its `vmCount` (docs/node-classes.md#compact-placement).
import { GceHttpError } from './resources.ts';
import type { GceWorld } from './world.ts';

/** A resource policy with a groupPlacementPolicy (the emulator serves compact placement only). */
export interface EmuResourcePolicy {
  readonly name: string;
  readonly region: string;
  readonly groupPlacementPolicy: { readonly collocation: 'COLLOCATED'; readonly vmCount?: number };
}

/** Machine series the emulator refuses in a compact placement: shared-core and E2 VMs have no compact placement. */
const UNSUPPORTED_SERIES = new Set(['e2', 'f1', 'g1']);

const POLICY_URL = /(?:^|\/)projects\/([^/]+)\/regions\/([^/]+)\/resourcePolicies\/([^/]+)$/;

/** Checks the policies a create names for `count` new instances of `machineType` in `zone`. */
export function checkPlacement(
  world: GceWorld,
  zone: string,
  machineType: string,
  policies: unknown,
  count: number,
  field: string,
): void {
  if (policies === undefined) return;
  if (!Array.isArray(policies))
    throw new GceHttpError(400, 'invalid', `Invalid value for field '${field}': must be a list`);
  for (const url of policies) {
    const m = POLICY_URL.exec(String(url));
    if (!m) throw new GceHttpError(400, 'invalid', `Invalid value for field '${field}': '${String(url)}'`);
    const [, project, region, name] = m;
    const policy = world.resourcePolicies.get(`${region}/${name}`);
    if (project !== world.project || !policy)
      throw new GceHttpError(404, 'notFound', `The resource '${String(url)}' was not found`);
    if (!zone.startsWith(`${region}-`))
      throw new GceHttpError(
        400,
        'invalid',
        `Resource policy '${name}' is in region ${region} and cannot be used in zone ${zone}`,
      );
    const series = machineType.split('-')[0] ?? '';
    if (UNSUPPORTED_SERIES.has(series))
      throw new GceHttpError(
        400,
        'invalid',
        `Machine type ${machineType} does not support compact placement policies (resource policy '${name}')`,
      );
    const limit = policy.groupPlacementPolicy.vmCount;
    const attached = [...world.instances.values()].filter(
      (i) =>
        i.status !== 'TERMINATED' &&
        policiesOf(i.resource).some((p) => p.endsWith(`/${region}/resourcePolicies/${name}`)),
    ).length;
    if (limit !== undefined && attached + count > limit)
      throw new GceHttpError(
        400,
        'invalid',
        `Resource policy '${name}' allows ${limit} VMs (vmCount): ${attached} use it and ${count} more were asked`,
      );
  }
}

function policiesOf(resource: Record<string, unknown>): string[] {
  const p = resource.resourcePolicies;
  return Array.isArray(p) ? p.map(String) : [];
}
