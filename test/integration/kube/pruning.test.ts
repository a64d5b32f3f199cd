// Structural pruning as kube-apiserver does it (apiextensions-apiserver's pruning algorithm), through the real
// @kubernetes/client-node: a field is kept only where the CRD's schema declares it or has additionalProperties,
// so a `type: object` without `properties` stores as `{}` unless x-kubernetes-preserve-unknown-fields says keep.
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import type { CrdObject } from '../../../local/kube-api/resources.ts';
import { startHarness, type Harness } from '../../contracts/cluster/harness.ts';

// widgets.example.kraftsman.dev: only the CRD's spec matters to the emulator.
const widgets: CrdObject = {
  spec: {
    group: 'example.kraftsman.dev',
    scope: 'Cluster',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  opaque: { type: 'object' },
                  list: { type: 'array', items: { type: 'object' } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  open: {
                    type: 'object',
                    'x-kubernetes-preserve-unknown-fields': true,
                    properties: { closed: { type: 'object' } },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

let h: Harness;
let custom: CustomObjectsApi;
const WIDGETS = { group: 'example.kraftsman.dev', version: 'v1', plural: 'widgets' };

beforeAll(async () => {
  h = await startHarness({ crds: [widgets] });
  custom = kubeConfigFor(h.url, 't').makeApiClient(CustomObjectsApi);
});
afterAll(() => h.close());

type Widget = { spec: Record<string, unknown> };

describe('structural pruning of custom resources', () => {
  it('keeps nothing inside a type: object without properties, also in array items, and says so on read', async () => {
    const body = {
      apiVersion: 'example.kraftsman.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: {
        opaque: { gpu: 'h100', nested: { count: 8 } },
        list: [{ a: 1 }, { b: { c: 2 } }],
        labels: { team: 'ml' },
      },
    };
    const created = (await custom.createClusterCustomObject({ ...WIDGETS, body })) as Widget;
    expect(created.spec).toEqual({ opaque: {}, list: [{}, {}], labels: { team: 'ml' } });
    const read = (await custom.getClusterCustomObject({ ...WIDGETS, name: 'w1' })) as Widget;
    expect(read.spec).toEqual(created.spec);
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields, but still prunes inside the fields it declares', async () => {
    const body = {
      apiVersion: 'example.kraftsman.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w2' },
      spec: { open: { anything: { goes: true }, closed: { dropped: 1 } } },
    };
    const created = (await custom.createClusterCustomObject({ ...WIDGETS, body })) as Widget;
    expect(created.spec).toEqual({ open: { anything: { goes: true }, closed: {} } });
  });

  it('prunes on update too: a JSON patch cannot smuggle a field into an object without properties', async () => {
    const patched = (await custom.patchClusterCustomObject({
      ...WIDGETS,
      name: 'w1',
      body: [{ op: 'add', path: '/spec/opaque/smuggled', value: 'x' }],
    })) as Widget;
    expect(patched.spec.opaque).toEqual({});
  });
});
