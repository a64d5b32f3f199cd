// Readers over the CloudFormation that `osls package` generates: a function's resource, its role's statements,
// its schedule and event sources, and the environment it is deployed with.
import type { CfnTemplate } from './package.ts';

export interface Statement {
  readonly Sid?: string;
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: Record<string, Record<string, unknown>>;
}

type Resource = CfnTemplate['Resources'][string];

/** Serverless's logical ids: `launch-aws` → `LaunchDashaws`. */
export function logicalName(fn: string): string {
  const n = fn.replace(/-/g, 'Dash');
  return n.charAt(0).toUpperCase() + n.slice(1);
}

export function lambdaOf(t: CfnTemplate, fn: string): Resource | undefined {
  return t.Resources[`${logicalName(fn)}LambdaFunction`];
}

/** The logical id of the role a function runs under (its Role is `Fn::GetAtt: [Id, Arn]`). */
export function roleIdOf(t: CfnTemplate, fn: string): string | undefined {
  const role = lambdaOf(t, fn)?.Properties.Role as { 'Fn::GetAtt'?: [string, string] } | undefined;
  return role?.['Fn::GetAtt']?.[0];
}

export function statementsOf(t: CfnTemplate, roleId: string): Statement[] {
  const policies = (t.Resources[roleId]?.Properties.Policies ?? []) as {
    PolicyDocument: { Statement: Statement[] };
  }[];
  return policies.flatMap((p) => p.PolicyDocument.Statement);
}

export const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
export const resourcesOf = (s: Statement): unknown[] =>
  Array.isArray(s.Resource) ? s.Resource : [s.Resource];

export function allowedActions(t: CfnTemplate, roleId: string): Set<string> {
  return new Set(
    statementsOf(t, roleId)
      .filter((s) => s.Effect === 'Allow')
      .flatMap(actionsOf),
  );
}

/** The pseudo parameters CloudFormation resolves at deploy time, as a deploy to a test account would see them. */
const PSEUDO: Readonly<Record<string, string>> = {
  'AWS::AccountId': '123456789012',
  'AWS::Region': 'us-east-1',
};

/** A function's environment as Lambda would see it: a `Ref` to a pseudo parameter resolved as above. */
export function environmentOf(t: CfnTemplate, fn: string): Record<string, string> {
  const env = lambdaOf(t, fn)?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined;
  const value = (v: unknown): string => {
    if (typeof v === 'string') return v;
    const ref = (v as { Ref?: unknown } | null)?.Ref;
    return typeof ref === 'string' && PSEUDO[ref] ? PSEUDO[ref] : JSON.stringify(v);
  };
  return Object.fromEntries(Object.entries(env?.Variables ?? {}).map(([k, v]) => [k, value(v)]));
}

/** The schedule expressions of the EventBridge rules that target this function. */
export function schedulesOf(t: CfnTemplate, fn: string): string[] {
  const target = `${logicalName(fn)}LambdaFunction`;
  return Object.values(t.Resources)
    .filter((r) => r.Type === 'AWS::Events::Rule' && r.Properties.ScheduleExpression)
    .filter((r) => JSON.stringify(r.Properties.Targets).includes(`"${target}"`))
    .map((r) => String(r.Properties.ScheduleExpression));
}

export function sqsMappingsOf(t: CfnTemplate, fn: string): Resource[] {
  const target = `${logicalName(fn)}LambdaFunction`;
  return Object.values(t.Resources).filter(
    (r) =>
      r.Type === 'AWS::Lambda::EventSourceMapping' &&
      JSON.stringify(r.Properties.FunctionName).includes(target),
  );
}

/** Every string a CloudFormation value mentions (Fn::Sub bodies, GetAtt ids, plain strings). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The function's async invoke config (retries, maximum event age, destinations), if it has one. */
export function eventInvokeConfigOf(t: CfnTemplate, fn: string): Resource | undefined {
  const target = `${logicalName(fn)}LambdaFunction`;
  return Object.values(t.Resources).find(
    (r) =>
      r.Type === 'AWS::Lambda::EventInvokeConfig' &&
      JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: target }),
  );
}

/** The on-failure destination of the function's async invokes (a CloudFormation value), if any. */
export function onFailureOf(t: CfnTemplate, fn: string): unknown {
  const config = eventInvokeConfigOf(t, fn)?.Properties.DestinationConfig as
    { OnFailure?: { Destination?: unknown } } | undefined;
  return config?.OnFailure?.Destination;
}
