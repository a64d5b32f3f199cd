// A price book as DynamoDB items: rows packed as compact tuples into chunks that stay under the 400 KB item
// limit (both clouds' offerings make a book of about a megabyte), and parsed back with every field checked.
import { z } from 'zod';
import { CLOUDS } from '../../model/labels.ts';
import { PRICED_CAPACITY_TYPES, type PriceRow } from '../../ports/price-store.ts';

/** Bytes of row text per chunk: well under the 400 KB item limit, leaving room for keys and attributes. */
export const DEFAULT_CHUNK_BYTES = 300_000;

const CT_CODE = { 'on-demand': 'o', spot: 's' } as const;
const tupleSchema = z.tuple([
  z.enum(CLOUDS),
  z.string().min(1),
  z.string().min(1),
  z.enum(['o', 's']),
  z.number().finite().nonnegative(),
]);
export const chunkBodySchema = z.array(tupleSchema);

/** Rows → JSON texts of at most `maxBytes` each (a row is never split). */
export function packRows(rows: readonly PriceRow[], maxBytes: number): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const r of rows) {
    const text = JSON.stringify([r.cloud, r.instanceType, r.zone, CT_CODE[r.capacityType], r.price]);
    if (parts.length > 0 && size + text.length + 1 > maxBytes) {
      chunks.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(text);
    size += text.length + 1;
  }
  if (parts.length > 0 || chunks.length === 0) chunks.push(`[${parts.join(',')}]`);
  return chunks;
}

/** JSON text of one chunk → rows; a malformed chunk is reported by the caller, which knows its key. */
export function unpackRows(body: string): { ok: true; rows: PriceRow[] } | { ok: false; detail: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error: unknown) {
    return { ok: false, detail: `body is not JSON (${String(error)})` };
  }
  const parsed = chunkBodySchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      detail: `body: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
    };
  const ct = (c: 'o' | 's') => PRICED_CAPACITY_TYPES[c === 'o' ? 0 : 1];
  return {
    ok: true,
    rows: parsed.data.map(([cloud, instanceType, zone, c, price]) => ({
      cloud,
      instanceType,
      zone,
      capacityType: ct(c),
      price,
    })),
  };
}
