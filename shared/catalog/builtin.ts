// The built-in instance catalog: the generated data of builtin-data.ts, validated once with the model's
// zod schema and shared (frozen) by every caller. Pure: no I/O; the CLI's --catalog replaces it.
import { catalogSchema, type InstanceTypeCatalog } from '../model/catalog.ts';
import { BUILTIN_CATALOG_DATA } from './builtin-data.ts';
import { BuiltinCatalogError } from './errors.ts';

let cached: InstanceTypeCatalog | undefined;

/** The built-in catalog, parsed (defaults applied) on first use and memoized; deep-frozen so no caller can change it for others. */
export function builtinCatalog(): InstanceTypeCatalog {
  if (cached) return cached;
  const parsed = catalogSchema.safeParse(BUILTIN_CATALOG_DATA);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BuiltinCatalogError(
      `built-in catalog is invalid at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`,
      {
        cause: parsed.error,
      },
    );
  }
  cached = deepFreeze(parsed.data);
  return cached;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
