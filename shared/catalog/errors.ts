// Errors of the catalog module.

/** The generated built-in data does not satisfy the InstanceTypeCatalog schema (a generator bug, never user input). */
export class BuiltinCatalogError extends Error {
  override name = 'BuiltinCatalogError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
