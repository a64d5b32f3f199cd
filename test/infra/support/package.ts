// Runs `osls package` offline (no AWS credentials: CloudFormation pseudo parameters stand in for the account)
// and reads the CloudFormation it generates. A function whose handler file does not exist yet is left out of
// the packaged copy and reported, so the template test fails for that function alone, naming the file.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseDocument } from 'yaml';
import { ROOT } from './derive.ts';

const run = promisify(execFile);

/** The deploy parameters CI packages with: both clouds on, so every variable is rendered. */
export const CI_PARAMS = {
  cluster: 'ci',
  kubeServer: 'https://kube.ci.example:6443',
  gcp: 'on',
  gcpProject: 'kraftsman-ci',
  gcpProjectNumber: '123456789012',
  gcpRegion: 'us-central1',
  gcpZones: 'us-central1-a,us-central1-b',
  vpc: 'on',
  vpcSubnetIds: 'subnet-0a1,subnet-0b2',
  vpcSecurityGroupIds: 'sg-0c3',
} as const;

export interface ServiceFunction {
  readonly name: string;
  /** functions/<name>/handler.ts */
  readonly handlerFile: string;
}

export function serviceFunctions(): ServiceFunction[] {
  const doc = parseDocument(readFileSync(join(ROOT, 'serverless.yml'), 'utf8'));
  const fns = doc.toJS().functions as Record<string, { handler: string }>;
  return Object.entries(fns).map(([name, f]) => ({
    name,
    handlerFile: `${f.handler.replace(/\.[^./]+$/, '')}.ts`,
  }));
}

export interface Packaged {
  readonly template: CfnTemplate;
  readonly missing: readonly ServiceFunction[];
  readonly artifacts: string;
}
export interface CfnTemplate {
  readonly Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
}

export async function packageService(): Promise<Packaged> {
  const fns = serviceFunctions();
  const missing = fns.filter((f) => !existsSync(join(ROOT, f.handlerFile)));
  const artifacts = join(ROOT, '.tmp', `sls-${process.pid}`);
  mkdirSync(artifacts, { recursive: true });
  let config = 'serverless.yml';
  if (missing.length > 0) {
    const doc = parseDocument(readFileSync(join(ROOT, 'serverless.yml'), 'utf8'));
    for (const f of missing) doc.deleteIn(['functions', f.name]);
    config = `serverless.${process.pid}.ci.yml`;
    writeFileSync(join(ROOT, config), doc.toString());
  }
  const params = Object.entries(CI_PARAMS).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
  try {
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules/osls/bin/serverless.js'),
        'package',
        '--config',
        config,
        '--package',
        artifacts,
        ...params,
      ],
      { cwd: ROOT, env: ciEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
  } finally {
    if (config !== 'serverless.yml') rmSync(join(ROOT, config), { force: true });
  }
  const template = JSON.parse(
    readFileSync(join(artifacts, 'cloudformation-template-update-stack.json'), 'utf8'),
  ) as CfnTemplate;
  return { template, missing, artifacts };
}

/** No AWS credentials reach the packager: packaging must not depend on an account. */
function ciEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  env.SLS_TELEMETRY_DISABLED = '1';
  env.SLS_NOTIFICATIONS_MODE = 'off';
  return env;
}
