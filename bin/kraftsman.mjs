#!/usr/bin/env node
// The kraftsman CLI: registers the TypeScript loader and runs local/cli (see docs/contract.md).
import { register } from 'tsx/esm/api';

// The AWS SDK warns on Node 20 that its releases after January 2027 will need Node 22. kraftsman pins its SDK
// versions (package-lock.json) and supports Node 20.19+ (README, "Set up"), so the warning says nothing true
// about this install; a user who sets the variable keeps their own value.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('../local/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  now: () => new Date(),
});
