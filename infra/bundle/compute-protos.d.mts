// Types of infra/bundle/compute-protos.mjs (plain JavaScript: serverless-esbuild loads it without a compiler).
import type { Plugin } from 'esbuild';

export const COMPUTE_SERVICES: readonly string[];
export function pruneComputeProtos(full: unknown, services?: readonly string[]): unknown;
export const computeProtosPlugin: Plugin;
declare const plugins: Plugin[];
export default plugins;
