// Starts dynalite in-process on 127.0.0.1 (port 0): the local fleet's store where Java is absent, and the fast
// tests' and the round-trip bench's; stop() closes it.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalDynamo } from './server.ts';

export type { LocalDynamo };

type DynaliteFactory = (options: {
  createTableMs: number;
  deleteTableMs: number;
  updateTableMs: number;
}) => Server;
const dynalite = createRequire(import.meta.url)('dynalite') as DynaliteFactory;

export async function startDynalite(): Promise<LocalDynamo> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    kind: 'dynalite',
    full: false,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets of SDK clients would hold a graceful close open.
        server.closeAllConnections();
      }),
  };
}
