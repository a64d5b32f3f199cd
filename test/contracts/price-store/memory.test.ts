// The PriceStore contract against the in-memory store.
import { MemoryPriceStore, type MemoryPriceData } from '../../../shared/adapters/memory/prices.ts';
import { priceStoreContract } from './contract.ts';

priceStoreContract('memory', () => {
  const data: MemoryPriceData = new Map();
  return Promise.resolve({
    make: () => new MemoryPriceStore(data),
    chunked: false,
    corrupt: (cluster, what) => {
      const head = data.get(`${cluster}/HEAD`) as { version: string };
      const key = what === 'head' ? `${cluster}/HEAD` : `${cluster}/V#${head.version}`;
      data.set(key, what === 'head' ? { ...head, readAt: 'yesterday' } : [{ cloud: 'azure' }]);
      return Promise.resolve(key);
    },
    close: () => Promise.resolve(),
  });
});
