// How many discovery workers --workers may start (docs/contract.md): more threads than cores only add memory.
export const MAX_WORKERS = 64;
