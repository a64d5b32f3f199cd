// Replacement-failure holds on DynamoDB (docs/mechanisms/replacement-backoff.md): one partition per cluster,
// one item per candidate, read by a pass with one Query. A release does not delete: it ends the item's life
// (expiresAt = now) under the condition that its fingerprint is still the one released, so a failure recorded
// meanwhile survives; the `ttl` attribute lets DynamoDB remove the leftovers later (readers never rely on it).
import { z } from 'zod';
import type { Clock } from '../../ports/clock.ts';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import { backoffInputs, type BackoffRelease } from '../../ports/state-store/replacement-backoffs.ts';
import { parseItem } from './items.ts';
import { backoffKey, backoffPk, cleanupTtl } from './keys.ts';
import type { Table } from './table.ts';

const date = z
  .number()
  .int()
  .transform((n) => new Date(n));
const backoffItem = z.object({
  candidate: z.string(),
  nodePool: z.string(),
  fingerprint: z.string(),
  failures: z.number().int(),
  lastFailure: date,
  until: date,
  expiresAt: date,
});

export class ReplacementBackoffs {
  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
  ) {}

  async list(cluster: string): Promise<BackoffEntry[]> {
    const items = await this.table.query({ attr: 'pk', value: backoffPk(cluster) });
    const now = this.clock.now().getTime();
    return items
      .map((i) => parseItem(backoffItem, i))
      .filter((e) => e.expiresAt.getTime() > now)
      .sort((a, b) => a.candidate.localeCompare(b.candidate));
  }

  async put(cluster: string, entries: readonly BackoffEntry[]): Promise<void> {
    const parsed = backoffInputs.put(entries);
    await this.table.batchWrite(
      parsed.map((e) => ({
        ...backoffKey(cluster, e.candidate),
        candidate: e.candidate,
        nodePool: e.nodePool,
        fingerprint: e.fingerprint,
        failures: e.failures,
        lastFailure: e.lastFailure.getTime(),
        until: e.until.getTime(),
        expiresAt: e.expiresAt.getTime(),
        ttl: cleanupTtl(e.expiresAt.getTime()),
      })),
    );
  }

  /** Each release is one conditional write; a lost condition (or no item) leaves the item as it is. */
  async release(cluster: string, releases: readonly BackoffRelease[]): Promise<void> {
    const now = this.clock.now().getTime();
    for (const r of backoffInputs.release(releases))
      await this.table.update(backoffKey(cluster, r.candidate), {
        update: 'SET #expiresAt = :now, #ttl = :ttl',
        condition: 'attribute_exists(#pk) AND #fingerprint = :fingerprint',
        names: { '#pk': 'pk', '#expiresAt': 'expiresAt', '#ttl': 'ttl', '#fingerprint': 'fingerprint' },
        values: { ':now': now, ':ttl': cleanupTtl(now), ':fingerprint': r.fingerprint },
      });
  }
}
