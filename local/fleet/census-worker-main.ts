// One census-worker invocation in its own process (the local fleet's stand-in for a Lambda container): the payload
// on stdin, the handler built from the environment as functions/census-worker/deps.ts builds it, the result on file
// descriptor 3 (stdout carries what the function logs and its EMF metrics, as in Lambda); a failed invocation exits
// 1 with its error on stderr.
import { writeSync } from 'node:fs';
import { buildCensusWorkerDeps } from '../../functions/census-worker/deps.ts';
import { createCensusWorkerHandler } from '../../functions/census-worker/handler.ts';

const chunks: Buffer[] = [];
for await (const c of process.stdin) chunks.push(c as Buffer);
try {
  const handler = createCensusWorkerHandler(() => Promise.resolve(buildCensusWorkerDeps(process.env)));
  const payload: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const out = await handler(payload, { awsRequestId: `local-${process.pid}`, functionName: 'census-worker' });
  writeSync(3, JSON.stringify(out));
  process.exit(0);
} catch (e) {
  process.stderr.write(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
}
