// The Powertools logger writes one JSON line per entry with the invocation's keys and the entry's fields.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonLogger } from '../../../shared/observability/index.ts';

describe('jsonLogger', () => {
  afterEach(() => vi.restoreAllMocks());

  it('carries the service, the invocation keys and the fields, and drops entries below the level', () => {
    const lines: string[] = [];
    // Powertools writes INFO and below to stdout, WARN and above to stderr.
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
    const logger = jsonLogger({ serviceName: 'launch-aws', level: 'INFO', keys: { cluster: 'prod' } });
    logger.startInvocation({ requestId: 'req-1' });
    logger.debug('hidden');
    logger.info('launched', { claim: 'gpu-abc12' });
    logger.startInvocation({ requestId: 'req-2' });
    logger.warn('second');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      level: 'INFO',
      message: 'launched',
      service: 'launch-aws',
      cluster: 'prod',
      requestId: 'req-1',
      claim: 'gpu-abc12',
    });
    expect(entries[1]).toMatchObject({ requestId: 'req-2', message: 'second' });
    expect(entries[1]).not.toHaveProperty('claim');
  });
});
