// The API server's rules for a container's resources (ValidateResourceRequirements): resource names, whole
// numbers for extended resources, request ≤ limit, and request = limit for resources that cannot be
// overcommitted (extended resources such as nvidia.com/gpu, and hugepages).
import { qualifiedNameError } from './name-rules.ts';
import { parseQuantity } from './quantity.ts';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (name: string): boolean =>
  name.startsWith('hugepages-') || name.startsWith('kubernetes.io/hugepages-');

/** IsNativeResource: no domain, or the kubernetes.io domain. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** IsExtendedResourceName: a qualified name outside kubernetes.io that is not a quota `requests.` name. */
export function isExtendedResource(name: string): boolean {
  if (isNative(name) || name.startsWith('requests.')) return false;
  return qualifiedNameError(`requests.${name}`) === undefined;
}

/** IsOvercommitAllowed: native resources other than hugepages. */
const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

export interface ResourceIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

function nameIssue(name: string): string | undefined {
  if (!name.includes('/')) {
    if (STANDARD_CONTAINER_RESOURCES.has(name) || isHugePages(name)) return undefined;
    return 'must be a standard resource for containers (cpu, memory, ephemeral-storage, hugepages-<size>) or a domain-qualified name such as nvidia.com/gpu';
  }
  const bad = qualifiedNameError(name);
  return bad ? `resource name ${bad}` : undefined;
}

function quantityOf(q: string | number): bigint | undefined {
  try {
    return parseQuantity(q);
  } catch {
    return undefined; // reported by the quantity schema
  }
}

type Quantities = Readonly<Record<string, string | number>>;

/** Issues with one container's `resources`, paths relative to it (`requests.cpu`, `limits.nvidia.com/gpu`). */
export function containerResourceIssues(requests: Quantities = {}, limits: Quantities = {}): ResourceIssue[] {
  const issues: ResourceIssue[] = [];
  for (const [field, list] of [
    ['requests', requests],
    ['limits', limits],
  ] as const) {
    for (const [name, q] of Object.entries(list)) {
      const bad = nameIssue(name);
      if (bad) issues.push({ path: [field, name], message: bad });
      const milli = quantityOf(q);
      if (milli !== undefined && isExtendedResource(name) && milli % 1000n !== 0n)
        issues.push({
          path: [field, name],
          message: 'must be an integer (an extended resource is counted in whole units)',
        });
    }
  }
  for (const [name, q] of Object.entries(requests)) {
    const request = quantityOf(q);
    const limitText = limits[name];
    const limit = limitText === undefined ? undefined : quantityOf(limitText);
    if (request === undefined) continue;
    if (limitText === undefined) {
      if (!overcommitAllowed(name))
        issues.push({
          path: ['limits', name],
          message: `must be set: ${name} cannot be overcommitted, so its limit must equal its request`,
        });
    } else if (limit !== undefined && request > limit) {
      issues.push({
        path: ['requests', name],
        message: `must be less than or equal to ${name} limit of ${String(limitText)}`,
      });
    } else if (limit !== undefined && !overcommitAllowed(name) && request !== limit) {
      issues.push({
        path: ['requests', name],
        message: `must be equal to ${name} limit of ${String(limitText)}`,
      });
    }
  }
  return issues;
}
