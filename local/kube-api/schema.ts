// A small structural validator for CRD openAPIV3Schema: types, required, enums, patterns, bounds,
// int-or-string, preserve-unknown-fields. CEL rules (x-kubernetes-validations) are not evaluated.
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  [other: string]: unknown;
}

export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
  /** Unknown fields: a real API server prunes them silently; strict callers report them. */
  readonly unknownField: boolean;
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

export function validateSchema(value: unknown, schema: JsonSchema, path = ''): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const at = (message: string, unknownField = false): void =>
    void issues.push({ path: path || '.', message, unknownField });
  if (value === null) {
    if (!schema.nullable) at('must not be null');
    return issues;
  }
  if (schema['x-kubernetes-int-or-string']) {
    if (typeof value !== 'string' && !Number.isInteger(value))
      at(`must be an integer or a string, got ${typeOf(value)}`);
    return issues;
  }
  const actual = typeOf(value);
  if (schema.type) {
    const ok = schema.type === actual || (schema.type === 'number' && actual === 'integer');
    if (!ok) {
      at(`must be ${schema.type}, got ${actual}`);
      return issues;
    }
  }
  if (schema.enum && !schema.enum.some((e) => e === value))
    at(`must be one of ${schema.enum.map(String).join(', ')}`);
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) at(`must match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength)
      at(`must be at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      at(`must be at most ${schema.maxLength} characters`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) at(`must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) at(`must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      at(`must have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      at(`must have at most ${schema.maxItems} items`);
    if (schema.items)
      value.forEach((item, i) =>
        issues.push(...validateSchema(item, schema.items as JsonSchema, `${path}[${i}]`)),
      );
  } else if (actual === 'object') {
    issues.push(...validateObject(value as Record<string, unknown>, schema, path));
  }
  return issues;
}

function validateObject(value: Record<string, unknown>, schema: JsonSchema, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const keys = Object.keys(value);
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
    issues.push({
      path: path || '.',
      message: `must have at most ${schema.maxProperties} properties`,
      unknownField: false,
    });
  for (const req of schema.required ?? [])
    if (value[req] === undefined)
      issues.push({ path: `${path}.${req}`, message: 'is required', unknownField: false });
  for (const key of keys) {
    const child = schema.properties?.[key];
    const sub = `${path}.${key}`;
    if (child) issues.push(...validateSchema(value[key], child, sub));
    else if (typeof schema.additionalProperties === 'object')
      issues.push(...validateSchema(value[key], schema.additionalProperties, sub));
    else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true)
      issues.push({ path: sub, message: 'unknown field', unknownField: true });
  }
  return issues;
}

/** The root of a custom resource: apiVersion, kind and metadata are the server's, not the schema's. */
export function validateCustomResource(obj: Record<string, unknown>, schema: JsonSchema): SchemaIssue[] {
  const props = { ...schema.properties };
  for (const k of ['apiVersion', 'kind']) props[k] ??= { type: 'string' };
  // CRDs declare the root metadata as a bare `type: object`; it is ObjectMeta, which the server checks itself.
  props.metadata = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return validateSchema(obj, { ...schema, properties: props });
}

/**
 * What the API server does to a custom resource before it stores it: structural pruning and defaulting.
 * Pruning follows apiextensions-apiserver's algorithm (pkg/apiserver/schema/pruning): a field of an object is
 * kept only if the schema declares it in `properties` or has `additionalProperties` (a schema, or true);
 * otherwise it is dropped — also inside a `type: object` with no `properties` at all, which keeps nothing — unless
 * x-kubernetes-preserve-unknown-fields is set on that object (then undeclared fields stay, declared ones are
 * still pruned inside). A value with no schema (array items without `items`) keeps no object fields either.
 * Defaulting: a declared `default` fills an absent field of an object that is present (e.g. NodeClaim
 * `spec.expireAfter: 720h`). Mutates and returns `value`.
 */
export function pruneAndDefault(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) {
    for (const item of value) pruneAndDefault(item, schema?.items);
    return value;
  }
  if (value === null || typeof value !== 'object' || schema?.['x-kubernetes-int-or-string']) return value;
  const obj = value as Record<string, unknown>;
  const keep =
    schema?.['x-kubernetes-preserve-unknown-fields'] === true || schema?.additionalProperties === true;
  for (const key of Object.keys(obj)) {
    const child =
      schema?.properties?.[key] ??
      (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (child) pruneAndDefault(obj[key], child);
    else if (!keep) delete obj[key];
  }
  for (const [key, child] of Object.entries(schema?.properties ?? {}))
    if (obj[key] === undefined && child.default !== undefined) obj[key] = structuredClone(child.default);
  return obj;
}

/** Pruning and defaulting of a whole custom resource: apiVersion, kind and metadata are the server's. */
export function pruneCustomResource(obj: Record<string, unknown>, schema: JsonSchema): void {
  const { apiVersion, kind, metadata } = obj;
  pruneAndDefault(obj, {
    ...schema,
    properties: {
      ...schema.properties,
      apiVersion: {},
      kind: {},
      metadata: { 'x-kubernetes-preserve-unknown-fields': true },
    },
  });
  Object.assign(obj, { apiVersion, kind, metadata });
}
