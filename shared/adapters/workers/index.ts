// Discovery worker threads (docs/mechanisms/parallel-discovery.md): what the functions and the CLI start.
export { serveIfDiscoveryWorker } from './bundle-entry.ts';
export { workerWalkDiscovery, type WorkerWalkDiscoveryArgs } from './walk-discovery.ts';
export {
  WorkerSpeculation,
  SPECULATION_TOTALS,
  DISCOVERY_TUNING,
  type SpeculationStats,
} from './discovery-workers.ts';
export { censusEntrySchema, walkVerdictSchema, type WorkerInit } from './protocol.ts';
