// The deployable as CloudFormation: `osls package` runs offline once, then every function in serverless.yml is
// checked (handler present, trigger, timeout against the budget its own config parses to, concurrency, own
// role) and every role is held to least privilege. A function whose handler does not exist fails alone.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { workloadIdentityClient } from '../../shared/adapters/gcp-compute/auth.ts';
import { CENSUS_MARGIN_MS } from '../../shared/config/census.ts';
import { CENSUS_TIMEOUT_MS } from '../../shared/disruption/census.ts';
import { admissionBudgetMs } from '../../shared/disruption/admission-budget.ts';
import { MAX_PROPOSALS } from '../../shared/disruption/proposal.ts';
import { maxPayloadAgeMs, PASS_INTERVAL_MS } from '../../shared/loop/admit-payload.ts';
import { DEFAULT_OPTIONS } from '../../shared/disruption/types.ts';
import {
  ROOT,
  bundleOf,
  deriveActions,
  deriveGcePermissions,
  derivePartitions,
  DYNAMODB_WRITES,
  clusterCallsIn,
  CLUSTER_JOIN_TOKENS,
  CLUSTER_WRITES,
  gceCallsIn,
  portCallsIn,
  readCallTable,
  readEc2Permissions,
  readGcePermissions,
} from './support/derive.ts';
import { CI_PARAMS, serviceFunctions, type Packaged } from './support/package.ts';
import { packagedService } from './support/packaged.ts';
import {
  actionsOf,
  environmentOf,
  lambdaOf,
  resourcesOf,
  roleIdOf,
  schedulesOf,
  sqsMappingsOf,
  allowedActions,
  statementsOf,
  eventInvokeConfigOf,
  onFailureOf,
} from './support/template.ts';

const FUNCTIONS = serviceFunctions();
/** Invoked by another function (asynchronously), never on a schedule. */
const INVOKED = new Set(['launch-aws', 'launch-gcp', 'admit', 'census-worker']);
/** Overlap must not happen: admission is strictly sequential (docs/mechanisms/batched-admission.md). */
const SINGLE = new Set(['admit']);
/** EC2 and Price List actions with no resource-level permissions: the only ones that may name Resource '*'. */
const NO_RESOURCE_LEVEL = /^(ec2:Describe[A-Za-z]+|pricing:GetProducts)$/;
/** The time a hand-off to admit (one async Lambda invoke, retried) may take. */
const HAND_OFF_MS = 30_000;

let packaged: Packaged;
beforeAll(async () => {
  packaged = await packagedService();
}, 300_000);

/** Parses the function's own config from the environment the template deploys it with (plus Lambda's own). */
async function configOf(fn: string): Promise<unknown> {
  const file = join(ROOT, 'shared/config', `${fn}.ts`);
  if (!existsSync(file))
    throw new Error(`shared/config/${fn}.ts is missing: the ${fn} function has no config schema`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const name = `${fn.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Config`;
  const parse = mod[name];
  if (typeof parse !== 'function') throw new Error(`shared/config/${fn}.ts exports no ${name}(env)`);
  return parse({ ...environmentOf(packaged.template, fn), AWS_REGION: 'us-east-1' }) as unknown;
}

/** The first numeric value under `key` anywhere in a parsed config (budgets nest differently per function). */
function findMs(config: unknown, key: string): number | undefined {
  if (!config || typeof config !== 'object') return undefined;
  for (const [k, v] of Object.entries(config)) {
    if (k === key && typeof v === 'number') return v;
    const inner = findMs(v, key);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** What each function's timeout must cover, from the defaults its config schema parses to. */
const BUDGETS: Record<string, (config: unknown) => number> = {
  provision: (c) => findMs(c, 'windowMs') ?? Number.NaN,
  consolidate: (c) =>
    (findMs(c, 'singleNodeTimeoutMs') ?? DEFAULT_OPTIONS.singleNodeTimeoutMs) +
    (findMs(c, 'multiNodeTimeoutMs') ?? DEFAULT_OPTIONS.multiNodeTimeoutMs) +
    HAND_OFF_MS,
  // A lingering lock is waited out first; then the settling delay and ~20 s per proposal.
  admit: (c) =>
    (findMs(c, 'lockWaitMs') ?? 0) +
    admissionBudgetMs(MAX_PROPOSALS) -
    admissionBudgetMs(0) +
    (findMs(c, 'settlingDelayMs') ?? admissionBudgetMs(0)),
  // The sweep budget, then reading the cluster and prices and storing the results.
  census: (c) => (findMs(c, 'sweepBudgetMs') ?? Number.NaN) + CENSUS_MARGIN_MS,
  // The census's budget (the worker's own is less): reading the snapshot and storing the shard fit in the margin.
  'census-worker': () => CENSUS_TIMEOUT_MS + CENSUS_MARGIN_MS,
};

describe.each(FUNCTIONS)('function $name', ({ name, handlerFile }) => {
  const present = () => {
    if (!existsSync(join(ROOT, handlerFile)))
      throw new Error(
        `${handlerFile} is missing: serverless.yml names ${name}, but it has no handler to package`,
      );
  };

  it('has its handler, packaged into its own artifact', () => {
    present();
    expect(packaged.missing.map((f) => f.name)).not.toContain(name);
    expect(lambdaOf(packaged.template, name), `${name} in the template`).toBeDefined();
    expect(existsSync(join(packaged.artifacts, `${name}.zip`))).toBe(true);
  });

  it('is triggered: a schedule, an SQS queue, or an invoke by another function', () => {
    present();
    const t = packaged.template;
    if (INVOKED.has(name)) {
      expect(schedulesOf(t, name)).toEqual([]);
      const invokers = FUNCTIONS.filter((f) => f.name !== name).filter((f) =>
        statementsOf(t, roleIdOf(t, f.name) ?? '').some(
          (s) =>
            actionsOf(s).includes('lambda:InvokeFunction') &&
            JSON.stringify(s.Resource).includes(`:function:kraftsman-dev-${name}"`),
        ),
      );
      expect(invokers.length, `some role may invoke ${name}`).toBeGreaterThan(0);
    } else expect(schedulesOf(t, name).length).toBeGreaterThan(0);
  });

  it("has a timeout that covers its budget, read from its config's defaults", async () => {
    present();
    const config = await configOf(name); // the deployed environment parses
    const timeoutMs = Number(lambdaOf(packaged.template, name)?.Properties.Timeout) * 1000;
    expect(timeoutMs).toBeLessThanOrEqual(900_000);
    const budget = BUDGETS[name]?.(config);
    if (budget !== undefined)
      expect(timeoutMs, `${name} timeout vs budget ${budget} ms`).toBeGreaterThanOrEqual(budget);
  });

  it('runs alone where overlap must not happen', () => {
    present();
    const reserved = lambdaOf(packaged.template, name)?.Properties.ReservedConcurrentExecutions;
    if (SINGLE.has(name)) expect(reserved).toBe(1);
    else expect(reserved).toBeUndefined();
  });

  it('runs under its own fixed-name role, shared with no other function', () => {
    present();
    const t = packaged.template;
    const role = roleIdOf(t, name);
    expect(role).toBeDefined();
    const sharing = FUNCTIONS.filter((f) => f.name !== name && roleIdOf(t, f.name) === role);
    expect(sharing).toEqual([]);
    expect(t.Resources[role ?? '']?.Properties.RoleName).toBe(`kraftsman-dev-${name}`);
  });
});

describe.each(FUNCTIONS)('the role of $name', ({ name, handlerFile }) => {
  it('allows exactly what its bundled code calls (infra/iam/calls.yml, aws-ec2/PERMISSIONS.md)', async () => {
    if (!existsSync(join(ROOT, handlerFile)))
      throw new Error(`${handlerFile} is missing: no code to derive ${name}'s role from`);
    const t = packaged.template;
    const bundle = await bundleOf(handlerFile);
    const files = bundle.files;
    const table = readCallTable();
    const calls = portCallsIn(bundle, table);
    const derived = deriveActions(calls, table, readEc2Permissions());
    expect(derived.unknown).toEqual([]);
    const launches = calls.ec2 && (calls.cloud.has('create') || calls.cloud.has('createGang'));
    const expected = new Set([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      ...derived.dynamodb,
      ...derived.ec2,
      ...derived.iam,
      ...derived.ssm,
      ...(files.includes('shared/adapters/kube/cluster.ts') ? ['secretsmanager:GetSecretValue'] : []),
      ...(calls.invokes ? ['lambda:InvokeFunction'] : []),
      // The census snapshot object (docs/mechanisms/census.md#fan-out): the coordinator writes and deletes it, the
      // worker reads it — by the use case its bundle carries.
      ...(files.includes('shared/loop/census-fanout.ts') ? ['s3:PutObject', 's3:DeleteObject'] : []),
      ...(files.includes('shared/loop/census-worker.ts') ? ['s3:GetObject'] : []),
      ...(sqsMappingsOf(t, name).length > 0
        ? ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']
        : []),
      // Lambda sends an async invoke that failed for good to the function's failure queue.
      ...(onFailureOf(t, name) ? ['sqs:SendMessage'] : []),
      // PERMISSIONS.md, "Also needed": the node role for the launch template, the Spot service-linked role.
      ...(launches ? ['iam:PassRole', 'iam:CreateServiceLinkedRole'] : []),
    ]);
    const allowed = allowedActions(t, roleIdOf(t, name) ?? '');
    // Both ways: an action granted that the bundle never calls is as much a failure as one it calls ungranted.
    expect({
      grantedNeverCalled: [...allowed].filter((a) => !expected.has(a)).sort(),
      calledNotGranted: [...expected].filter((a) => !allowed.has(a)).sort(),
    }).toEqual({ grantedNeverCalled: [], calledNotGranted: [] });
  });
});

/** The state table's partition key values a role may write, from its write statements' LeadingKeys condition. */
function writablePartitions(
  t: Packaged['template'],
  roleId: string,
): { kinds: string[]; unconditioned: string[] } {
  const kinds: string[] = [];
  const unconditioned: string[] = [];
  for (const s of statementsOf(t, roleId).filter((x) => x.Effect === 'Allow')) {
    const writes = actionsOf(s).filter((a) => DYNAMODB_WRITES.has(a));
    if (writes.length === 0) continue;
    const keys = s.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'];
    if (!Array.isArray(keys)) unconditioned.push(`${s.Sid}: ${writes.join(', ')}`);
    for (const k of Array.isArray(keys) ? keys : []) kinds.push(String(k));
  }
  return { kinds: kinds.sort(), unconditioned };
}

describe.each(FUNCTIONS)('the state-table writes of $name', ({ name, handlerFile }) => {
  it('reach exactly the partitions its bundled code writes (dynamodb:LeadingKeys, calls.yml partitions:)', async () => {
    if (!existsSync(join(ROOT, handlerFile)))
      throw new Error(`${handlerFile} is missing: no code to derive ${name}'s partitions from`);
    const table = readCallTable();
    const derived = derivePartitions(portCallsIn(await bundleOf(handlerFile), table), table);
    expect(derived.unknown).toEqual([]);
    const { kinds, unconditioned } = writablePartitions(
      packaged.template,
      roleIdOf(packaged.template, name) ?? '',
    );
    // Every write action is held by the condition; an unconditioned one could rewrite any item of the table.
    expect(unconditioned, `${name}: writes without a dynamodb:LeadingKeys condition`).toEqual([]);
    expect(kinds).toEqual([...derived.kinds].map((k) => `C#${CI_PARAMS.cluster}#${k}`).sort());
  });
});

describe('state-table partitions that belong to few functions', () => {
  const writing = (kind: string): string[] =>
    FUNCTIONS.map((f) => f.name)
      .filter((fn) =>
        writablePartitions(packaged.template, roleIdOf(packaged.template, fn) ?? '').kinds.includes(
          `C#${CI_PARAMS.cluster}#${kind}`,
        ),
      )
      .sort();

  it('commands are written by admit and orchestrate alone: pricing or lifecycle cannot rewrite one', () => {
    expect(writing('CMD')).toEqual(['admit', 'orchestrate']);
    expect(writing('CAND')).toEqual(['admit']);
    expect(writing('PRICES')).toEqual(['pricing']);
    expect(writing('CENSUS')).toEqual(['census']);
  });
});

/** A gcloud role definition file (`gcloud iam roles create --file`), as infra/gcp/roles/ holds them. */
const gcpRoleSchema = z
  .object({
    title: z.string().min(1),
    description: z.string().min(1),
    stage: z.literal('GA'),
    includedPermissions: z.array(z.string().regex(/^[a-z]+\.[A-Za-z]+\.[A-Za-z]+$/)).min(1),
  })
  .strict();
const gcpRoleFile = (fn: string) => join(ROOT, 'infra/gcp/roles', `${fn}.yaml`);
function gcpRoleOf(fn: string): string[] | undefined {
  if (!existsSync(gcpRoleFile(fn))) return undefined;
  return gcpRoleSchema.parse(parse(readFileSync(gcpRoleFile(fn), 'utf8'))).includedPermissions;
}

/** The permission a conditional binding confines to the deployment's tagged instances (docs/deploy.md, "Confining deletes"). */
const DELETE = 'compute.instances.delete';
/** What a function's two Google roles grant together: `<fn>.yaml` unconditioned, `<fn>-delete.yaml` conditioned. */
const gcpGrantsOf = (fn: string): string[] | undefined => {
  const roles = [gcpRoleOf(fn), gcpRoleOf(`${fn}-delete`)].filter((r) => r !== undefined);
  return roles.length > 0 ? roles.flat() : undefined;
};

describe.each(FUNCTIONS)('the Google custom role of $name', ({ name, handlerFile }) => {
  it('grants exactly the Compute Engine permissions its bundled code calls (calls.yml gce:, gcp-compute/PERMISSIONS.md)', async () => {
    if (!existsSync(join(ROOT, handlerFile)))
      throw new Error(`${handlerFile} is missing: no code to derive ${name}'s Google role from`);
    const table = readCallTable();
    const calls = gceCallsIn(await bundleOf(handlerFile), table);
    const derived = deriveGcePermissions(calls, table, readGcePermissions());
    expect(derived.unknown).toEqual([]);
    const granted = gcpGrantsOf(name);
    if (!calls.bundled) {
      expect(granted, `infra/gcp/roles/${name}(-delete).yaml: ${name} calls no Google API`).toBeUndefined();
      return;
    }
    expect(gcpRoleOf(name), `infra/gcp/roles/${name}.yaml is missing`).toBeDefined();
    const allowed = new Set(granted);
    expect(allowed.size, `infra/gcp/roles/${name}(-delete).yaml list a permission twice`).toBe(
      granted?.length,
    );
    // Both ways, as for the AWS role: granted and never called fails as much as called and not granted.
    expect({
      grantedNeverCalled: [...allowed].filter((p) => !derived.permissions.has(p)).sort(),
      calledNotGranted: [...derived.permissions].filter((p) => !allowed.has(p)).sort(),
    }).toEqual({ grantedNeverCalled: [], calledNotGranted: [] });
  });

  it('holds compute.instances.delete in <fn>-delete.yaml alone, which exists exactly when the code deletes', async () => {
    if (!existsSync(join(ROOT, handlerFile)))
      throw new Error(`${handlerFile} is missing: no code to derive ${name}'s Google role from`);
    const table = readCallTable();
    const derived = deriveGcePermissions(
      gceCallsIn(await bundleOf(handlerFile), table),
      table,
      readGcePermissions(),
    );
    // An unconditioned delete would let the function delete any instance of the project, whatever the condition.
    expect(gcpRoleOf(name) ?? [], `infra/gcp/roles/${name}.yaml must not grant ${DELETE}`).not.toContain(
      DELETE,
    );
    if (!derived.permissions.has(DELETE)) {
      expect(
        gcpRoleOf(`${name}-delete`),
        `infra/gcp/roles/${name}-delete.yaml: ${name} deletes nothing`,
      ).toBeUndefined();
      return;
    }
    // A conditional binding must hold the delete alone: a list permission on it would be denied (docs/deploy.md).
    expect(gcpRoleOf(`${name}-delete`), `infra/gcp/roles/${name}-delete.yaml`).toEqual([DELETE]);
  });

  it('is the role of its own service account: the function impersonates that account, or has no Google credentials', async () => {
    const env = environmentOf(packaged.template, name);
    if (!existsSync(gcpRoleFile(name))) {
      expect(env.KRAFTSMAN_GCP_CREDENTIALS, `${name} has no Google role`).toBeUndefined();
      return;
    }
    const creds = JSON.parse(env.KRAFTSMAN_GCP_CREDENTIALS ?? '{}') as Record<string, unknown>;
    expect(creds.service_account_impersonation_url).toBe(
      `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/kraftsman-dev-${name}@${CI_PARAMS.gcpProject}.iam.gserviceaccount.com:generateAccessToken`,
    );
    expect(() => workloadIdentityClient(env.KRAFTSMAN_GCP_CREDENTIALS)).not.toThrow();
  });
});

describe('Compute Engine permissions that belong to few functions', () => {
  const granting = (permission: string): string[] =>
    FUNCTIONS.map((f) => f.name)
      .filter((fn) => gcpGrantsOf(fn)?.includes(permission))
      .sort();

  it('creating instances is launch-gcp’s; deleting them launch-gcp’s (a partial gang), orchestrate’s and lifecycle’s', () => {
    for (const p of [
      'compute.instances.create',
      'compute.disks.create',
      'compute.images.useReadOnly',
      'compute.subnetworks.use',
      'compute.instances.setMetadata',
      'compute.instances.setLabels',
      'compute.instances.setTags',
      'compute.instances.setServiceAccount',
    ])
      expect(granting(p), p).toEqual(['launch-gcp']);
    expect(granting('compute.instances.delete')).toEqual(['launch-gcp', 'lifecycle', 'orchestrate']);
  });
});

describe('the price APIs’ SDKs', () => {
  it('are bundled by the pricing function alone: the billing catalog client (and with it @google-cloud/billing)', async () => {
    const carrying: string[] = [];
    for (const { name, handlerFile } of FUNCTIONS.filter((f) => existsSync(join(ROOT, f.handlerFile)))) {
      const { files } = await bundleOf(handlerFile);
      if (files.includes('shared/adapters/gcp-compute/billing-client.ts')) carrying.push(name);
    }
    expect(carrying).toEqual(['pricing']);
  });
});

describe('actions that belong to one function alone', () => {
  /** The roles (logical ids) that grant `action`. */
  const granting = (action: string): string[] =>
    Object.entries(packaged.template.Resources)
      .filter(([, r]) => r.Type === 'AWS::IAM::Role')
      .filter(([id]) => allowedActions(packaged.template, id).has(action))
      .map(([id]) => id)
      .sort();

  it('the price APIs are the pricing function’s: every other function prices from the stored book', () => {
    expect(granting('pricing:GetProducts')).toEqual(['PricingRole']);
    expect(granting('ec2:DescribeSpotPriceHistory')).toEqual(['PricingRole']);
  });

  it('the command fence (the ConditionCheck of its transaction) is admit’s: orchestrate only moves admitted commands on', () => {
    // IAM authorizes each part of a TransactWriteItems as its own action; there is no TransactWriteItems action.
    expect(granting('dynamodb:TransactWriteItems')).toEqual([]);
    expect(granting('dynamodb:ConditionCheckItem')).toEqual(['AdmitRole']);
  });

  it('launching (CreateFleet, RunInstances, iam:PassRole) is launch-aws’s', () => {
    for (const action of ['ec2:CreateFleet', 'ec2:RunInstances', 'iam:PassRole'])
      expect(granting(action), action).toEqual(['LaunchAwsRole']);
  });
});

describe('roles', () => {
  const roles = () =>
    Object.entries(packaged.template.Resources).filter(([, r]) => r.Type === 'AWS::IAM::Role');

  it('grant no wildcard action, and Resource "*" only to actions without resource-level permissions', () => {
    for (const [id] of roles())
      for (const s of statementsOf(packaged.template, id)) {
        for (const a of actionsOf(s)) expect(a, `${id} ${s.Sid}`).not.toContain('*');
        if (resourcesOf(s).includes('*'))
          for (const a of actionsOf(s)) expect(a, `${id} ${s.Sid}: '*'`).toMatch(NO_RESOURCE_LEVEL);
      }
  });

  it("terminate and tag only this cluster's instances; tag new resources only as they are created", () => {
    for (const [id] of roles())
      for (const s of statementsOf(packaged.template, id)) {
        const acts = actionsOf(s);
        if (!acts.includes('ec2:TerminateInstances') && !acts.includes('ec2:CreateTags')) continue;
        const eq = s.Condition?.StringEquals ?? {};
        const scoped =
          eq['aws:ResourceTag/kraftsman.dev/cluster'] === CI_PARAMS.cluster ||
          (eq['aws:RequestTag/kraftsman.dev/cluster'] === CI_PARAMS.cluster &&
            JSON.stringify(eq['ec2:CreateAction']) ===
              JSON.stringify(['CreateFleet', 'RunInstances', 'CreateLaunchTemplate']));
        expect(scoped, `${id} ${s.Sid}`).toBe(true);
        if (acts.includes('ec2:TerminateInstances'))
          expect(eq['aws:ResourceTag/kraftsman.dev/cluster'], `${id} ${s.Sid}`).toBe(CI_PARAMS.cluster);
      }
  });

  it('never read the secrets of another deployment: only a kubeconfig secret of this stage', () => {
    for (const [id] of roles())
      for (const s of statementsOf(packaged.template, id).filter((x) =>
        actionsOf(x).includes('secretsmanager:GetSecretValue'),
      ))
        expect(JSON.stringify(s.Resource), id).toMatch(
          /:secret:kraftsman\/dev\/kubeconfig(-reader|-launcher)?-\?{6}"/,
        );
  });
});

describe.each(FUNCTIONS)('the Kubernetes identity of $name', ({ name, handlerFile }) => {
  it('is the read-only one when its code only reads the cluster, the launcher when it issues join tokens, the writer otherwise; its role reads that secret alone', async () => {
    const calls = clusterCallsIn(await bundleOf(handlerFile));
    const t = packaged.template;
    const readable = statementsOf(t, roleIdOf(t, name) ?? '')
      .filter((s) => s.Effect === 'Allow' && actionsOf(s).includes('secretsmanager:GetSecretValue'))
      .flatMap((s) => resourcesOf(s).map((r) => JSON.stringify(r)));
    if (calls.size === 0) {
      expect(readable, `${name} talks to no API server`).toEqual([]);
      return;
    }
    const writes = [...calls].filter((c) => CLUSTER_WRITES.has(c) || CLUSTER_JOIN_TOKENS.has(c));
    const secret = [...calls].some((c) => CLUSTER_JOIN_TOKENS.has(c))
      ? 'kraftsman/dev/kubeconfig-launcher'
      : writes.length > 0
        ? 'kraftsman/dev/kubeconfig'
        : 'kraftsman/dev/kubeconfig-reader';
    expect(environmentOf(t, name).KRAFTSMAN_KUBE_SECRET, `${name} writes: ${writes.join(', ')}`).toBe(secret);
    expect(readable).toEqual([expect.stringContaining(`:secret:${secret}-??????`)]);
  });
});

describe('the read-only Kubernetes identity', () => {
  it('is consolidate’s and census’s: they read the cluster and never write to it', async () => {
    const readers = FUNCTIONS.filter(
      (f) =>
        environmentOf(packaged.template, f.name).KRAFTSMAN_KUBE_SECRET === 'kraftsman/dev/kubeconfig-reader',
    ).map((f) => f.name);
    expect(readers.sort()).toEqual(['census', 'consolidate']);
  });
});

describe('asynchronous invokes', () => {
  const t = () => packaged.template;

  it('of admit, launch-aws and launch-gcp end in the failure queue, bounded in age and retries', () => {
    for (const name of INVOKED) {
      const config = eventInvokeConfigOf(t(), name)?.Properties;
      expect(config, `${name} has an EventInvokeConfig`).toBeDefined();
      expect(JSON.stringify(onFailureOf(t(), name)), name).toContain('AsyncFailureQueue');
      expect(Number(config?.MaximumEventAgeInSeconds), name).toBeGreaterThanOrEqual(60);
      expect(Number(config?.MaximumEventAgeInSeconds), name).toBeLessThanOrEqual(900);
      expect(config?.MaximumRetryAttempts, name).toBeDefined();
    }
  });

  it('to admit are not retried, and live long enough for admit to refuse a stale one itself', () => {
    const config = eventInvokeConfigOf(t(), 'admit')?.Properties;
    expect(config?.MaximumRetryAttempts).toBe(0);
    expect(Number(config?.MaximumEventAgeInSeconds) * 1000).toBeGreaterThanOrEqual(
      maxPayloadAgeMs(MAX_PROPOSALS),
    );
    // The age bound counts one pass interval: consolidate's schedule.
    expect(schedulesOf(t(), 'consolidate')).toEqual([`rate(${PASS_INTERVAL_MS / 60_000} minute)`]);
  });

  it('that failed for good raise an alarm on the first record in the failure queue', () => {
    const queue = t().Resources.AsyncFailureQueue;
    expect(queue?.Type).toBe('AWS::SQS::Queue');
    const alarms = Object.values(t().Resources).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        JSON.stringify(r.Properties.Dimensions ?? []).includes('AsyncFailureQueue'),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('may be sent to the failure queue by the invoked functions alone, and to no other queue', () => {
    for (const { name } of FUNCTIONS) {
      const sends = statementsOf(t(), roleIdOf(t(), name) ?? '').filter((s) =>
        actionsOf(s).includes('sqs:SendMessage'),
      );
      if (!INVOKED.has(name)) expect(sends, name).toEqual([]);
      else
        expect(
          sends.map((s) => JSON.stringify(s.Resource)),
          name,
        ).toEqual([JSON.stringify({ 'Fn::GetAtt': ['AsyncFailureQueue', 'Arn'] })]);
    }
  });
});

describe('environment', () => {
  it('holds no secret: the kubeconfig is a secret name, Google credentials a federation config', () => {
    for (const { name } of FUNCTIONS.filter((f) => lambdaOf(packaged.template, f.name))) {
      const env = environmentOf(packaged.template, name);
      expect(env.KRAFTSMAN_KUBE_TOKEN, name).toBeUndefined();
      expect(env.KRAFTSMAN_KUBE_SECRET, name).toMatch(/^kraftsman\/dev\/kubeconfig(-reader|-launcher)?$/);
      expect(env.KRAFTSMAN_KUBE_SERVER, name).toMatch(/^https:\/\//);
    }
  });

  it('pins the workload identity token exchange to Google STS and IAM credentials', () => {
    const env = environmentOf(packaged.template, 'provision');
    const creds = JSON.parse(env.KRAFTSMAN_GCP_CREDENTIALS ?? '{}') as Record<string, unknown>;
    expect(creds.token_url).toBe('https://sts.googleapis.com/v1/token');
    expect(String(creds.service_account_impersonation_url)).toMatch(
      /^https:\/\/iamcredentials\.googleapis\.com\/v1\/projects\/-\/serviceAccounts\/[^/]+:generateAccessToken$/,
    );
    expect(creds.audience).toBe(
      `//iam.googleapis.com/projects/${CI_PARAMS.gcpProjectNumber}/locations/global/workloadIdentityPools/kraftsman/providers/aws`,
    );
    expect(() => workloadIdentityClient(env.KRAFTSMAN_GCP_CREDENTIALS)).not.toThrow();
  });
});

describe('interruption events', () => {
  const r = () => packaged.template.Resources;

  it('route Spot warnings, rebalance, state changes and Health scheduled changes to one queue with a DLQ', () => {
    const rules = Object.values(r()).filter(
      (x) => x.Type === 'AWS::Events::Rule' && x.Properties.EventPattern,
    );
    const kinds = rules.map((x) => JSON.stringify(x.Properties.EventPattern));
    for (const kind of [
      'EC2 Spot Instance Interruption Warning',
      'EC2 Instance Rebalance Recommendation',
      'EC2 Instance State-change Notification',
      'AWS Health Event',
    ])
      expect(
        kinds.some((k) => k.includes(kind)),
        kind,
      ).toBe(true);
    for (const rule of rules) expect(JSON.stringify(rule.Properties.Targets)).toContain('InterruptionQueue');
    const redrive = r().InterruptionQueue?.Properties.RedrivePolicy as Record<string, unknown>;
    expect(JSON.stringify(redrive.deadLetterTargetArn)).toContain('InterruptionDeadLetterQueue');
    const policy = JSON.stringify(r().InterruptionQueuePolicy?.Properties.PolicyDocument);
    for (const id of [
      'SpotInterruptionRule',
      'RebalanceRecommendationRule',
      'InstanceStateChangeRule',
      'ScheduledChangeRule',
    ])
      expect(policy).toContain(id);
  });

  it('are read by lifecycle with partial-batch failures, its visibility timeout above lifecycle’s timeout', () => {
    const [mapping, ...more] = sqsMappingsOf(packaged.template, 'lifecycle');
    expect(more).toEqual([]);
    expect(mapping?.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const visibility = Number(r().InterruptionQueue?.Properties.VisibilityTimeout);
    expect(visibility).toBeGreaterThanOrEqual(
      Number(lambdaOf(packaged.template, 'lifecycle')?.Properties.Timeout) * 6,
    );
  });
});
