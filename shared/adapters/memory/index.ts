// The in-memory adapters' public surface (pure tests, the CLI, the local fleet).
export { MemoryStateStore } from './state-store.ts';
export type { MemoryStateData } from './state-store.ts';
export { InProcessInvoker, type InProcessTarget, type InvocationRecord } from './invoker.ts';
