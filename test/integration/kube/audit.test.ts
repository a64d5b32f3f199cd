// The emulator's audit is bounded: the last `auditLimit` requests in order, and counts of every request ever
// served per verb and resource, which is what the RBAC and eviction tests read.
import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../local/kube-api/audit.ts';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
let core: CoreV1Api;
beforeEach(async () => {
  h = await startHarness({ auditLimit: 3 });
  core = kubeConfigFor(h.url, 't').makeApiClient(CoreV1Api);
});
afterEach(() => h.close());

describe('the audit', () => {
  it('keeps only the last requests in order, and counts every request served', async () => {
    await core.createNode({ body: node('n1') as never });
    await core.readNode({ name: 'n1' });
    await core.listNode();
    await core.patchNode({ name: 'n1', body: [{ op: 'add', path: '/metadata/labels/a', value: 'b' }] });
    await core.deleteNode({ name: 'n1' });
    const a = h.emulator.audit;
    expect(a.length).toBe(5);
    expect(
      a.since(2).map((e) => `${e.verb} ${e.resource}${e.contentType ? ` ${e.contentType}` : ''}`),
    ).toEqual(['list nodes', 'patch nodes application/json-patch+json', 'delete nodes']);
    expect(a.since(5)).toEqual([]);
    expect(() => a.since(1)).toThrow('audit: requests since 1 are not kept (kept: 2–5, limit 3)');
    expect(a.count('create', 'nodes')).toBe(1);
    expect(a.count('get', 'nodes')).toBe(1);
    expect([...a.used()].sort()).toEqual([
      '|nodes|create',
      '|nodes|delete',
      '|nodes|get',
      '|nodes|list',
      '|nodes|patch',
    ]);
  });

  it('refuses a limit that is not a positive integer, naming it', () => {
    expect(() => new AuditLog(0)).toThrow('audit limit must be a positive integer, got 0');
  });
});
