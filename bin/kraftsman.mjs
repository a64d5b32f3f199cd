#!/usr/bin/env node
// The kraftsman CLI: registers the TypeScript loader and runs local/cli (see docs/contract.md).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../local/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  now: () => new Date(),
});
