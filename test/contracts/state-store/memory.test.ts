// The StateStore contract against the in-memory store used by pure tests and the CLI.
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import type { MemoryStateData } from '../../../shared/adapters/memory/state-store.ts';
import { stateStoreContract } from './contract.ts';

stateStoreContract('memory', async () => {
  // One shared backend per file, as a table is for the DynamoDB runs; stores differ only in their clock.
  const data: MemoryStateData = new Map();
  return { make: (clock) => new MemoryStateStore(clock, data), close: async () => {} };
});
