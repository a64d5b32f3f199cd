// EC2 pagination: MaxResults within each action's range, an opaque NextToken bound to the request it
// came from, and a small default page when MaxResults is absent, so a caller that reads one page misses
// the rest here as it would on a large account.
import { createHash } from 'node:crypto';
import { Ec2Fault } from './faults.ts';
import type { Params } from './query.ts';

/** MaxResults bounds per action, as the EC2 API reference states them. */
export const MAX_RESULTS: Readonly<Record<string, readonly [number, number]>> = {
  DescribeInstances: [5, 1000],
  DescribeInstanceTypes: [5, 100],
  DescribeInstanceTypeOfferings: [5, 1000],
  DescribeSpotPriceHistory: [1, 1000],
  DescribeSubnets: [5, 1000],
  DescribeSecurityGroups: [5, 1000],
  DescribeImages: [1, 1000],
  DescribeCapacityReservations: [1, 1000],
  DescribeLaunchTemplates: [1, 200],
};

const fingerprint = (params: Params): string =>
  createHash('sha256')
    .update(JSON.stringify([...params].filter(([k]) => k !== 'NextToken' && k !== 'MaxResults').sort()))
    .digest('hex')
    .slice(0, 16);

/** One page of `items` and the token of the next, or an InvalidParameterValue naming the bad input. */
export function paginate<T>(
  params: Params,
  items: readonly T[],
  defaultPageSize: number,
): { readonly page: T[]; readonly nextToken?: string } {
  const action = params.get('Action') ?? '';
  const [min, max] = MAX_RESULTS[action] ?? [1, 1000];
  const raw = params.get('MaxResults');
  const size = raw === undefined ? defaultPageSize : Number(raw);
  if (raw !== undefined && (!Number.isInteger(size) || size < min || size > max))
    throw new Ec2Fault(
      'InvalidParameterValue',
      `Value ( ${raw} ) for parameter maxResults is invalid. Parameter may only be between ${min} and ${max}.`,
    );
  const token = params.get('NextToken');
  const offset = token === undefined ? 0 : offsetOf(token, fingerprint(params));
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  if (next >= items.length) return { page };
  const nextToken = Buffer.from(JSON.stringify({ o: next, f: fingerprint(params) })).toString('base64url');
  return { page, nextToken };
}

function offsetOf(token: string, expected: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      o?: unknown;
      f?: unknown;
    };
    if (Number.isInteger(parsed.o) && parsed.f === expected) return parsed.o as number;
  } catch {
    // fall through: a token that is not ours
  }
  throw new Ec2Fault('InvalidParameterValue', `Invalid value '${token}' for nextToken`);
}
