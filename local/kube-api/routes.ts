// Parses a REST path into resource type, namespace, name and subresource:
// /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUB]] and /apis/GROUP/VERSION[/namespaces/NS]/PLURAL[/NAME[/SUB]].
import type { ResourceType } from './resources.ts';

export interface Route {
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

export function parsePath(path: string, types: readonly ResourceType[]): Route | undefined {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts[1]) [group, version, rest] = ['', parts[1], parts.slice(2)];
  else if (parts[0] === 'apis' && parts[1] && parts[2])
    [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  else return undefined;
  const find = (plural: string | undefined) =>
    types.find((t) => t.group === group && t.version === version && t.plural === plural);
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const type = find(rest[2]);
    if (type?.namespaced) return build(type, rest[1], rest[3], rest[4]);
  }
  const type = find(rest[0]);
  if (!type || rest.length > 3) return undefined;
  return build(type, undefined, rest[1], rest[2]);
}

function build(
  type: ResourceType,
  namespace: string | undefined,
  name: string | undefined,
  subresource: string | undefined,
): Route | undefined {
  if (subresource !== undefined && !(type.subresources as readonly string[]).includes(subresource))
    return undefined;
  return {
    type,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}
