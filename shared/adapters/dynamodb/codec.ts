// Plain values ↔ DynamoDB AttributeValues (the subset kraftsman stores: S, N, BOOL, NULL, L, M), so the adapter
// needs no extra package; undefined fields are dropped, as marshalling with removeUndefinedValues would.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Plain =
  string | number | boolean | null | readonly Plain[] | { readonly [key: string]: Plain | undefined };
export type Item = Record<string, AttributeValue>;

export function marshal(value: Plain): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot store the number ${value}`);
    return { N: String(value) };
  }
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map((v: Plain) => marshal(v)) };
  return { M: marshalItem(value as { readonly [key: string]: Plain | undefined }) };
}

export function marshalItem(fields: { readonly [key: string]: Plain | undefined }): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = marshal(v);
  return out;
}

export function unmarshal(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(unmarshal);
  if (value.M !== undefined) return unmarshalItem(value.M);
  if (value.SS !== undefined) return [...value.SS];
  throw new TypeError(`unsupported attribute value ${Object.keys(value).join(',')}`);
}

export function unmarshalItem(item: Record<string, AttributeValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) out[k] = unmarshal(v);
  return out;
}
