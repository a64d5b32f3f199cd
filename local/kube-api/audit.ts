// The emulator's bounded request audit: the most recent requests in order (a test reads what one call sent),
// and, for every request ever served, a count per verb on group/resource (RBAC's view of what was used).
// A fleet serves hundreds of thousands of requests; only the counts grow, with the distinct kinds of request.

/** One request as RBAC sees it: verb on group/resource[/subresource]. */
export interface AuditEntry {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly contentType?: string;
}

/** Requests kept in order by default: far more than one test's calls, a few hundred kilobytes at most. */
export const DEFAULT_AUDIT_LIMIT = 10_000;

const kindOf = (e: AuditEntry): string => `${e.group}|${e.resource}|${e.verb}`;

export class AuditLog {
  /** A ring of the last `limit` entries; entry number n (counted from 0) sits at n % limit. */
  private readonly ring: AuditEntry[] = [];
  private total = 0;
  private readonly counts = new Map<string, number>();

  constructor(readonly limit = DEFAULT_AUDIT_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`audit limit must be a positive integer, got ${limit}`);
  }

  /** How many requests were recorded so far: the mark `since` reads from. */
  get length(): number {
    return this.total;
  }

  record(entry: AuditEntry): void {
    this.ring[this.total % this.limit] = entry;
    this.total++;
    this.counts.set(kindOf(entry), (this.counts.get(kindOf(entry)) ?? 0) + 1);
  }

  /** The requests recorded after `mark` (an earlier `length`), in order; an error once they are no longer kept. */
  since(mark: number): AuditEntry[] {
    const oldest = Math.max(0, this.total - this.limit);
    if (!Number.isInteger(mark) || mark < oldest || mark > this.total)
      throw new RangeError(
        `audit: requests since ${mark} are not kept (kept: ${oldest}–${this.total}, limit ${this.limit})`,
      );
    const out: AuditEntry[] = [];
    for (let n = mark; n < this.total; n++) out.push(this.ring[n % this.limit] as AuditEntry);
    return out;
  }

  /** Requests ever served with this verb on this resource (`pods/eviction` for a subresource), any group. */
  count(verb: string, resource: string): number {
    let n = 0;
    for (const [kind, c] of this.counts) {
      const [, r, v] = kind.split('|');
      if (r === resource && v === verb) n += c;
    }
    return n;
  }

  /** Every `group|resource|verb` ever requested. */
  used(): Set<string> {
    return new Set(this.counts.keys());
  }
}
