// The example NodePools and node classes parse with the shared/model schemas and validate against the
// openAPIV3Schema of the project's CRDs (strict: unknown fields are errors too); the validator itself is checked.
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCrdDir, PROJECT_CRD_DIR } from '../../../local/kube-api/crds.ts';
import { typesFromCrd } from '../../../local/kube-api/resources.ts';
import { validateCustomResource } from '../../../local/kube-api/schema.ts';
import { isKnownKind, KINDS } from '../../../shared/model/objects.ts';

const EXAMPLES = new URL('../../../infra/examples/', import.meta.url);
const types = loadCrdDir(PROJECT_CRD_DIR).flatMap(typesFromCrd);
const schemaFor = (apiVersion: string, kind: string) =>
  types.find((t) => `${t.group}/${t.version}` === apiVersion && t.kind === kind)?.schema;

const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(new URL(file, EXAMPLES), 'utf8')).map((d) => ({
      file,
      obj: d.toJS() as Record<string, unknown> & {
        apiVersion: string;
        kind: string;
        metadata: { name: string };
      },
    })),
  );

describe('the CRDs', () => {
  it('serve every kind kraftsman reads from the karpenter groups, at the version the model reads', () => {
    for (const kind of ['NodePool', 'NodeClaim', 'EC2NodeClass', 'GCENodeClass'] as const)
      expect(schemaFor(KINDS[kind].apiVersion, kind), kind).toBeDefined();
  });

  it('reject what Karpenter rejects structurally: bad operators, budgets over 100%, missing nodeClassRef', () => {
    const schema = schemaFor('karpenter.sh/v1', 'NodePool');
    if (!schema) throw new Error('no NodePool schema');
    const pool = (spec: unknown) => ({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'x' },
      spec,
    });
    const tmpl = (s: Record<string, unknown>) => ({
      template: { spec: { nodeClassRef: { group: 'g', kind: 'k', name: 'n' }, requirements: [], ...s } },
    });
    expect(
      validateCustomResource(pool(tmpl({ requirements: [{ key: 'a', operator: 'Near' }] })), schema).map(
        (i) => i.path,
      ),
    ).toEqual(['.spec.template.spec.requirements[0].operator']);
    expect(
      validateCustomResource(pool({ ...tmpl({}), disruption: { budgets: [{ nodes: '101%' }] } }), schema).map(
        (i) => i.path,
      ),
    ).toEqual(['.spec.disruption.budgets[0].nodes']);
    expect(
      validateCustomResource(pool({ template: { spec: { requirements: [] } } }), schema).map((i) => i.path),
    ).toEqual(['.spec.template.spec.nodeClassRef']);
    expect(validateCustomResource(pool({ ...tmpl({}), surprise: 1 }), schema)).toEqual([
      { path: '.spec.surprise', message: 'unknown field', unknownField: true },
    ]);
  });
});

describe('the ProvisioningRequest CRD', () => {
  const schema = schemaFor(KINDS.ProvisioningRequest.apiVersion, 'ProvisioningRequest');
  const request = (spec: Record<string, unknown>) => ({
    apiVersion: 'autoscaling.x-k8s.io/v1',
    kind: 'ProvisioningRequest',
    metadata: { name: 'job', namespace: 'ml' },
    spec: {
      provisioningClassName: 'best-effort-atomic-scale-up.autoscaling.x-k8s.io',
      podSets: [{ podTemplateRef: { name: 'worker' }, count: 2 }],
      ...spec,
    },
  });

  it('serves the version the model reads, and a request the model accepts validates against it', () => {
    if (!schema) throw new Error('no ProvisioningRequest schema');
    const ok = request({ parameters: { noRetry: 'true' } });
    expect(KINDS.ProvisioningRequest.schema.safeParse(ok).success).toBe(true);
    expect(validateCustomResource(ok, schema)).toEqual([]);
  });

  it("refuses what Cluster Autoscaler's CRD refuses, as the model does: no pod set, a count below 1, a bad class", () => {
    if (!schema) throw new Error('no ProvisioningRequest schema');
    for (const [spec, path] of [
      [{ podSets: [] }, '.spec.podSets'],
      [{ podSets: [{ podTemplateRef: { name: 'w' }, count: 0 }] }, '.spec.podSets[0].count'],
      [{ provisioningClassName: 'Not_A_Class' }, '.spec.provisioningClassName'],
    ] as const) {
      expect(validateCustomResource(request(spec), schema).map((i) => i.path)).toEqual([path]);
      expect(KINDS.ProvisioningRequest.schema.safeParse(request(spec)).success).toBe(false);
    }
  });
});

describe('the examples', () => {
  it('cover both clouds', () => {
    expect(new Set(examples.map((e) => e.obj.kind))).toEqual(
      new Set(['NodePool', 'EC2NodeClass', 'GCENodeClass']),
    );
  });

  for (const { file, obj } of examples) {
    it(`${file}: ${obj.kind} ${obj.metadata.name} parses with the model and validates against its CRD`, () => {
      expect(isKnownKind(obj.kind)).toBe(true);
      if (!isKnownKind(obj.kind)) return;
      const parsed = KINDS[obj.kind].schema.safeParse(obj);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      const schema = schemaFor(obj.apiVersion, obj.kind);
      expect(schema).toBeDefined();
      if (schema) expect(validateCustomResource(obj, schema)).toEqual([]);
    });
  }
});

describe('the printer columns', () => {
  // Karpenter v1.14's pkg/apis/crds: `kubectl get nodepools` / `get nodeclaims` show what a Karpenter user knows.
  const columns = (plural: string) => {
    const crd = loadCrdDir(PROJECT_CRD_DIR).find((c) => c.spec.names.plural === plural);
    const v = (
      crd?.spec.versions as { additionalPrinterColumns?: { name: string; jsonPath: string }[] }[]
    )[0];
    return (v?.additionalPrinterColumns ?? []).map((c) => `${c.name} ${c.jsonPath}`);
  };
  it('are Karpenter’s for NodePools and NodeClaims', () => {
    expect(columns('nodepools')).toEqual([
      'NodeClass .spec.template.spec.nodeClassRef.name',
      'Nodes .status.nodes',
      'Ready .status.conditions[?(@.type=="Ready")].status',
      'Age .metadata.creationTimestamp',
      'Weight .spec.weight',
      'CPU .status.resources.cpu',
      'Memory .status.resources.memory',
    ]);
    expect(columns('nodeclaims').map((c) => c.split(' ')[0])).toEqual([
      'Type',
      'Capacity',
      'Zone',
      'Node',
      'Ready',
      'Age',
      'ImageID',
      'ID',
      'NodePool',
      'NodeClass',
      'Drifted',
    ]);
  });
});
