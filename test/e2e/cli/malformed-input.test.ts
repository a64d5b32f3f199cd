// Input the contract calls malformed, through the CLI entry: exit 2 with nothing on stdout, and a message that
// names the file, the object and the field (a List without an items array, a PVC's storage request, a catalog
// that names one instance type twice).
import { describe, expect, it } from 'vitest';
import { catalog, nodePool, pod } from '../../fixtures/builders/index.ts';
import { runCli, tempFile } from './run-cli.ts';

const catalogDoc = (instanceTypes: unknown[]) => ({
  apiVersion: 'kraftsman.dev/v1alpha1',
  kind: 'InstanceTypeCatalog',
  instanceTypes,
});

async function rejects(argv: string[], ...messages: RegExp[]): Promise<void> {
  const r = await runCli(argv);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  for (const m of messages) expect(r.stderr).toMatch(m);
}

describe('malformed input the contract names', () => {
  it.each([
    ['a map', { pods: [pod('p')] }],
    ['a string', 'pods'],
    ['missing', undefined],
  ])('rejects a List whose items is %s, naming file, object and field', async (_what, items) => {
    const file = tempFile('list.yaml', { apiVersion: 'v1', kind: 'List', metadata: {}, items });
    await rejects(['simulate', '-f', file, '-o', 'json'], new RegExp(file), /List/, /items/);
  });

  it('still reads an empty List as no objects from that document', async () => {
    const objs = tempFile('objs.yaml', { apiVersion: 'v1', kind: 'List', items: [nodePool(), pod('p')] });
    const empty = tempFile('empty.yaml', { apiVersion: 'v1', kind: 'List', items: [] });
    const r = await runCli(['simulate', '-f', objs, '-f', empty, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });

  it.each([
    ['not a quantity', 'ten gigs'],
    ['negative', '-1Gi'],
  ])('rejects a PersistentVolumeClaim whose storage request is %s', async (_what, storage) => {
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'ml' },
      spec: { resources: { requests: { storage } } },
    };
    const file = tempFile('pvc.yaml', { apiVersion: 'v1', kind: 'List', items: [nodePool(), pvc] });
    await rejects(
      ['simulate', '-f', file, '-o', 'json'],
      new RegExp(file),
      /PersistentVolumeClaim ml\/data/,
      /spec\.resources\.requests\.storage/,
    );
  });

  it.each([
    ['in one cloud', 'aws'],
    ['across both clouds', 'gcp'],
  ])('rejects a catalog naming the same instance type twice %s', async (_what, cloud) => {
    const [first] = catalog();
    const twice = { ...first, cloud, offerings: [{ zone: 'z-1', capacityType: 'on-demand', price: 1 }] };
    const file = tempFile('catalog.yaml', catalogDoc([...catalog(), twice]));
    const objs = tempFile('objs.yaml', { apiVersion: 'v1', kind: 'List', items: [nodePool(), pod('p')] });
    await rejects(
      ['simulate', '-f', objs, '--catalog', file, '-o', 'json'],
      new RegExp(file),
      /InstanceTypeCatalog/,
      /instanceTypes\[4\]\.name/,
      /s-2/,
    );
  });
});
