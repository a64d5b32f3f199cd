// The catalog module's public surface.
export { builtinCatalog } from './builtin.ts';
export { BuiltinCatalogError } from './errors.ts';
export {
  awsOverhead,
  gcpOverhead,
  gkeReservedMemoryMiB,
  reservedCpuMilli,
  type Overhead,
} from './overhead.ts';
