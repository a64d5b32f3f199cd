// Every paginated EC2 call reads every page: NextToken until there is none. EC2 may page any Describe
// answer (a large account's DescribeInstanceTypeOfferings always does); a token that repeats would
// loop for ever, so it fails instead.
import { RetryableCloudError } from '../../ports/cloud-provider/errors.ts';
import type { Call } from './ec2-context.ts';

export async function allPages<P extends { NextToken?: string | undefined }, T>(
  call: Call,
  what: string,
  send: (token: string | undefined) => Promise<P>,
  items: (page: P) => readonly T[] | undefined,
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  do {
    const page = await call(what, () => send(token));
    out.push(...(items(page) ?? []));
    token = page.NextToken || undefined;
    if (token !== undefined && seen.has(token))
      throw new RetryableCloudError(
        `EC2 ${what}: the answer repeated NextToken ${token}; the pages do not end`,
      );
    if (token !== undefined) seen.add(token);
  } while (token);
  return out;
}
