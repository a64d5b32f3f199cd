// The IAM actions kraftsman calls, each returning its Result element (IAM API Reference: GetInstanceProfile,
// CreateInstanceProfile, TagInstanceProfile, AddRoleToInstanceProfile, RemoveRoleFromInstanceProfile,
// DeleteInstanceProfile, ListInstanceProfiles), with IAM's validation, quotas and error codes.
import { membersOf, type Params } from '../ec2/query.ts';
import { alreadyExists, deleteConflict, limitExceeded, noSuchEntity, validation } from './faults.ts';
import {
  INSTANCE_PROFILES_PER_ACCOUNT,
  ROLES_PER_INSTANCE_PROFILE,
  type IamInstanceProfile,
  type IamWorld,
} from './world.ts';
import type { IamXml } from './xml.ts';

export type Handler = (world: IamWorld, params: Params) => Record<string, IamXml>;

/** IAM's name and path patterns (CreateInstanceProfile, "Request Parameters"). */
const NAME = /^[\w+=,.@-]{1,128}$/;
const PATH = /^(\/|\/[\u0021-\u007E]+\/)$/;
const TAGS_PER_PROFILE = 50;

function required(params: Params, key: string, pattern?: RegExp): string {
  const v = params.get(key);
  if (v === undefined || v === '')
    throw validation(
      `1 validation error detected: Value null at '${lower(key)}' failed to satisfy constraint: Member must not be null`,
    );
  if (pattern && !pattern.test(v))
    throw validation(
      `1 validation error detected: Value '${v}' at '${lower(key)}' failed to satisfy constraint: Member must satisfy regular expression pattern: ${pattern.source}`,
    );
  return v;
}
const lower = (k: string): string => k.charAt(0).toLowerCase() + k.slice(1);

function profileOf(world: IamWorld, name: string): IamInstanceProfile {
  const p = world.profiles.get(name);
  if (!p) throw noSuchEntity(`Instance Profile ${name} cannot be found.`);
  return p;
}

function tagsOf(params: Params): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const t of membersOf(params, 'Tags.member')) tags[t.get('Key') ?? ''] = t.get('Value') ?? '';
  if (Object.keys(tags).length > TAGS_PER_PROFILE)
    throw limitExceeded(`Cannot exceed quota for TagsPerInstanceProfile: ${TAGS_PER_PROFILE}`);
  return tags;
}

function roleXml(world: IamWorld, name: string): IamXml {
  const r = world.roles.get(name);
  if (!r) return undefined;
  return {
    Path: r.path,
    RoleName: r.name,
    RoleId: r.id,
    Arn: world.roleArn(r),
    CreateDate: r.createDate,
    AssumeRolePolicyDocument: encodeURIComponent(
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      }),
    ),
  };
}

/** ListInstanceProfiles "does not return tags, even though they are an attribute of the returned object". */
function profileXml(world: IamWorld, p: IamInstanceProfile, withTags: boolean): IamXml {
  return {
    Path: p.path,
    InstanceProfileName: p.name,
    InstanceProfileId: p.id,
    Arn: world.profileArn(p),
    CreateDate: p.createDate,
    Roles: p.roles.map((r) => roleXml(world, r)),
    ...(withTags && Object.keys(p.tags).length > 0
      ? { Tags: Object.entries(p.tags).map(([Key, Value]) => ({ Key, Value })) }
      : {}),
  };
}

const getInstanceProfile: Handler = (world, params) => {
  const name = required(params, 'InstanceProfileName', NAME);
  return { InstanceProfile: profileXml(world, profileOf(world, name), true) };
};

const createInstanceProfile: Handler = (world, params) => {
  const name = required(params, 'InstanceProfileName', NAME);
  const path = params.get('Path') ?? '/';
  if (!PATH.test(path) || path.length > 512)
    throw validation(
      `The specified value for path is invalid. It must begin and end with / and contain only alphanumeric characters and/or / characters.`,
    );
  if (world.profiles.has(name)) throw alreadyExists(`Instance Profile ${name} already exists.`);
  if (world.profiles.size >= INSTANCE_PROFILES_PER_ACCOUNT)
    throw limitExceeded(
      `Cannot exceed quota for InstanceProfilesPerAccount: ${INSTANCE_PROFILES_PER_ACCOUNT}`,
    );
  const p: IamInstanceProfile = {
    name,
    id: world.nextId('AIPA'),
    path,
    createDate: world.now(),
    roles: [],
    tags: tagsOf(params),
    changedAt: 0,
    unseenLaunches: 0,
  };
  world.touch(p);
  world.profiles.set(name, p);
  return { InstanceProfile: profileXml(world, p, true) };
};

const tagInstanceProfile: Handler = (world, params) => {
  const p = profileOf(world, required(params, 'InstanceProfileName', NAME));
  p.tags = { ...p.tags, ...tagsOf(params) };
  return {};
};

const addRoleToInstanceProfile: Handler = (world, params) => {
  const p = profileOf(world, required(params, 'InstanceProfileName', NAME));
  const role = required(params, 'RoleName', NAME);
  if (!world.roles.has(role)) throw noSuchEntity(`The role with name ${role} cannot be found.`);
  if (p.roles.length >= ROLES_PER_INSTANCE_PROFILE)
    throw limitExceeded(
      `Cannot exceed quota for InstanceSessionsPerInstanceProfile: ${ROLES_PER_INSTANCE_PROFILE}`,
    );
  p.roles.push(role);
  world.touch(p);
  return {};
};

const removeRoleFromInstanceProfile: Handler = (world, params) => {
  const p = profileOf(world, required(params, 'InstanceProfileName', NAME));
  const role = required(params, 'RoleName', NAME);
  if (!p.roles.includes(role)) throw noSuchEntity(`The role with name ${role} cannot be found.`);
  p.roles = p.roles.filter((r) => r !== role);
  return {};
};

const deleteInstanceProfile: Handler = (world, params) => {
  const p = profileOf(world, required(params, 'InstanceProfileName', NAME));
  if (p.roles.length > 0)
    throw deleteConflict('Cannot delete entity, must remove roles from instance profile first.');
  world.profiles.delete(p.name);
  return {};
};

/** Pages of MaxItems (default 100, IAM's), the Marker naming where the next starts. */
const listInstanceProfiles: Handler = (world, params) => {
  const prefix = params.get('PathPrefix') ?? '/';
  const max = Number(params.get('MaxItems') ?? '100');
  if (!Number.isInteger(max) || max < 1 || max > 1000)
    throw validation(
      `1 validation error detected: Value '${params.get('MaxItems')}' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 1000`,
    );
  const all = [...world.profiles.values()]
    .filter((p) => p.path.startsWith(prefix))
    .sort((a, b) => a.name.localeCompare(b.name));
  const marker = params.get('Marker');
  const start = marker ? all.findIndex((p) => p.name === marker) : 0;
  if (start < 0) throw validation(`Invalid Marker ${marker}`);
  const page = all.slice(start, start + max);
  const next = all[start + max];
  return {
    InstanceProfiles: page.map((p) => profileXml(world, p, false)),
    IsTruncated: next !== undefined,
    ...(next ? { Marker: next.name } : {}),
  };
};

export const ACTIONS: Readonly<Record<string, Handler>> = {
  GetInstanceProfile: getInstanceProfile,
  CreateInstanceProfile: createInstanceProfile,
  TagInstanceProfile: tagInstanceProfile,
  AddRoleToInstanceProfile: addRoleToInstanceProfile,
  RemoveRoleFromInstanceProfile: removeRoleFromInstanceProfile,
  DeleteInstanceProfile: deleteInstanceProfile,
  ListInstanceProfiles: listInstanceProfiles,
};
