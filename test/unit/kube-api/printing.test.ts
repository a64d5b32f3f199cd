// The Kubernetes emulator's server-side printing: the JSONPath subset of CRD printer columns and kubectl's
// HumanDuration for AGE (local/kube-api/README.md).
import { describe, expect, it } from 'vitest';
import { cellText, evaluate } from '../../../local/kube-api/json-path.ts';
import { age, asTable } from '../../../local/kube-api/tables.ts';

const claim = {
  kind: 'NodeClaim',
  metadata: {
    name: 'c1',
    labels: { 'node.kubernetes.io/instance-type': 'g5.xlarge' },
    creationTimestamp: '2026-12-01T00:00:00Z',
  },
  status: {
    conditions: [
      { type: 'Launched', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
    addresses: [{ address: '10.0.0.1' }, { address: '10.0.0.2' }],
  },
};

describe('printer-column JSONPath', () => {
  it('reads escaped-dot keys, filters, indexes, and joins several matches', () => {
    expect(evaluate(claim, '.metadata.labels.node\\.kubernetes\\.io/instance-type')).toEqual(['g5.xlarge']);
    expect(evaluate(claim, '.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(evaluate(claim, '.status.conditions[1].type')).toEqual(['Ready']);
    expect(cellText(evaluate(claim, '.status.addresses[?(@.address=="10.0.0.2")].address'))).toBe('10.0.0.2');
    expect(cellText(evaluate(claim, '.status.conditions[?(@.status=="True")].type'))).toBe('Launched');
    expect(cellText(evaluate({ a: [{ b: 1 }, { b: 2 }] }, '.a[?(@.b=="2")]'))).toBe('{"b":2}');
    expect(evaluate(claim, '.status.nodeName')).toEqual([]);
    expect(() => evaluate(claim, '.status[*]')).toThrow(/unsupported/);
  });
});

describe('AGE as kubectl prints it', () => {
  const at = (s: number) =>
    age('2026-12-01T00:00:00Z', new Date(Date.parse('2026-12-01T00:00:00Z') + s * 1000));
  it('follows HumanDuration', () => {
    expect(at(59)).toBe('59s');
    expect(at(119)).toBe('119s');
    expect(at(330)).toBe('5m30s');
    expect(at(600)).toBe('10m');
    expect(at(3 * 3600 + 12 * 60)).toBe('3h12m');
    expect(at(9 * 3600)).toBe('9h');
    expect(at(2 * 86400 + 4 * 3600)).toBe('2d4h');
    expect(at(30 * 86400)).toBe('30d');
    expect(at(800 * 86400)).toBe('2y70d');
    expect(age('not a date', new Date())).toBe('<unknown>');
  });
});

describe('asTable', () => {
  it('gives a custom resource NAME, its printer columns and AGE, and leaves priority on the definitions', () => {
    const t = asTable(
      { kind: 'NodeClaimList', metadata: { resourceVersion: '5' }, items: [claim] },
      {
        now: new Date('2026-12-01T00:05:00Z'),
        printerColumns: () => [
          { name: 'Type', type: 'string', jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type' },
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'ID', type: 'string', jsonPath: '.status.providerID', priority: 1 },
        ],
      },
    ) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
      metadata: unknown;
    };
    expect(t.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Type', 0],
      ['Ready', 0],
      ['ID', 1],
      ['Age', 0],
    ]);
    expect(t.rows[0]?.cells).toEqual(['c1', 'g5.xlarge', 'False', '', '5m']);
    expect(t.metadata).toEqual({ resourceVersion: '5' });
  });

  it('prints a deleting pod Terminating and counts ready containers and restarts', () => {
    const pod = {
      kind: 'Pod',
      metadata: {
        name: 'p',
        creationTimestamp: '2026-12-01T00:00:00Z',
        deletionTimestamp: '2026-12-01T00:01:00Z',
      },
      spec: { containers: [{}, {}], nodeName: 'n1' },
      status: {
        phase: 'Running',
        containerStatuses: [
          { ready: true, restartCount: 2 },
          { ready: false, restartCount: 1 },
        ],
      },
    };
    const t = asTable(pod, { now: new Date('2026-12-01T00:00:30Z'), printerColumns: () => undefined }) as {
      rows: { cells: unknown[] }[];
    };
    expect(t.rows[0]?.cells).toEqual(['p', '1/2', 'Terminating', 3, '30s', '<none>', 'n1']);
  });
});
