// Network reach (docs/deploy.md, "Network reach"): with `--param vpc=on` every function runs in the given
// subnets and security groups, and every function's role may manage the network interfaces Lambda creates
// there; without it, no function is in a VPC and the interface policy is not created.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/derive.ts';
import { CI_PARAMS, serviceFunctions, type Packaged } from './support/package.ts';
import { packagedService } from './support/packaged.ts';
import { lambdaOf, roleIdOf } from './support/template.ts';

const run = promisify(execFile);
const FUNCTIONS = serviceFunctions();
/** The EC2 statement of AWS's AWSLambdaVPCAccessExecutionRole managed policy. */
const ENI_ACTIONS = [
  'ec2:CreateNetworkInterface',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSubnets',
  'ec2:DeleteNetworkInterface',
  'ec2:AssignPrivateIpAddresses',
  'ec2:UnassignPrivateIpAddresses',
];

let packaged: Packaged;
beforeAll(async () => {
  packaged = await packagedService();
}, 300_000);

describe('with --param vpc=on (the CI package)', () => {
  it('puts every function in the given subnets and security groups', () => {
    expect(CI_PARAMS.vpc).toBe('on');
    for (const { name } of FUNCTIONS) {
      expect(lambdaOf(packaged.template, name)?.Properties.VpcConfig, name).toEqual({
        SubnetIds: { 'Fn::Split': [',', CI_PARAMS.vpcSubnetIds] },
        SecurityGroupIds: { 'Fn::Split': [',', CI_PARAMS.vpcSecurityGroupIds] },
      });
    }
  });

  it("lets every function's role, and only those, manage the network interfaces, under the InVpc condition", () => {
    const t = packaged.template as Packaged['template'] & { Conditions?: Record<string, unknown> };
    expect(t.Conditions?.InVpc).toEqual({ 'Fn::Equals': ['on', 'on'] });
    const policy = t.Resources.VpcNetworkInterfacesPolicy as
      { Type: string; Condition?: string; Properties: Record<string, unknown> } | undefined;
    expect(policy?.Type).toBe('AWS::IAM::Policy');
    expect(policy?.Condition).toBe('InVpc');
    const roles = (policy?.Properties.Roles as { Ref: string }[]).map((r) => r.Ref).sort();
    expect(roles).toEqual(FUNCTIONS.map((f) => roleIdOf(packaged.template, f.name)).sort());
    const doc = policy?.Properties.PolicyDocument as { Statement: { Action: string[]; Resource: unknown }[] };
    expect(doc.Statement).toHaveLength(1);
    expect(doc.Statement[0]?.Action.sort()).toEqual([...ENI_ACTIONS].sort());
    expect(doc.Statement[0]?.Resource).toBe('*');
  });
});

describe('without --param vpc', () => {
  it('resolves no VPC for the functions and a false InVpc condition', async () => {
    const osls = join(ROOT, 'node_modules/osls/bin/serverless.js');
    const base = ['--param', 'cluster=ci', '--param', 'kubeServer=https://kube.ci.example:6443'];
    const print = async (path: string) =>
      (
        await run(process.execPath, [osls, 'print', '--path', path, '--format', 'json', ...base], {
          cwd: ROOT,
        })
      ).stdout;
    expect(JSON.parse(await print('provider.vpc'))).toBeNull();
    expect(JSON.parse(await print('resources.Conditions.InVpc'))).toEqual({ 'Fn::Equals': ['off', 'on'] });
  });
});
