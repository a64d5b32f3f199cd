// How many discovery worker threads a function's walk gets (docs/mechanisms/parallel-discovery.md, "In Lambda"):
// KRAFTSMAN_DISCOVERY_WORKERS when set, else the vCPUs Lambda gives the function's memory.
import { z } from 'zod';

/** A thread per vCPU at most; more only add memory (the CLI's --workers caps at the same 64). */
export const MAX_DISCOVERY_WORKERS = 64;
/**
 * AWS: "At 1,769 MB, a function has the equivalent of one vCPU (one vCPU-second of credits per second)", credits
 * growing in proportion up to 10,240 MB, "up to 6 vCPUs" (Lambda developer guide, "Configuring Lambda function
 * memory"; AWS News Blog, Dec 2020, "functions with up to 10 GB of memory and 6 vCPUs").
 */
export const MB_PER_VCPU = 1769;
export const MAX_LAMBDA_VCPUS = 6;

/** The vCPU credits the memory buys, to the nearest whole thread: 3,008 MB → 2, 10,240 MB (5.79) → 6, ≤ 2,653 → 1. */
export function vcpusForMemory(memoryMb: number): number {
  return Math.min(MAX_LAMBDA_VCPUS, Math.max(1, Math.round(memoryMb / MB_PER_VCPU)));
}

const wholeNumber = (what: string, min: number, max: number) =>
  z.coerce
    .number({ message: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be at least ${min}`)
    .max(max, `${what} must be at most ${max}`);

export const discoveryWorkersEnv = {
  /** Unset: sized to the memory (vcpusForMemory); 1 starts no thread. */
  KRAFTSMAN_DISCOVERY_WORKERS: wholeNumber(
    'KRAFTSMAN_DISCOVERY_WORKERS',
    1,
    MAX_DISCOVERY_WORKERS,
  ).optional(),
  /** Set by the Lambda runtime to the function's configured memory; unset outside Lambda (then one worker). */
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: wholeNumber('AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 128, 10_240).optional(),
};

export function discoveryWorkers(e: {
  readonly KRAFTSMAN_DISCOVERY_WORKERS?: number | undefined;
  readonly AWS_LAMBDA_FUNCTION_MEMORY_SIZE?: number | undefined;
}): number {
  if (e.KRAFTSMAN_DISCOVERY_WORKERS !== undefined) return e.KRAFTSMAN_DISCOVERY_WORKERS;
  return e.AWS_LAMBDA_FUNCTION_MEMORY_SIZE === undefined
    ? 1
    : vcpusForMemory(e.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
}
