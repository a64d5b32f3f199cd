// Discovery documents (/api, /apis, /api/v1, /apis/<group>[/<version>], /version, /openapi/v3) built from the
// registered resource types, so kubectl and KubernetesObjectApi can map kinds to paths.
import { openApiV3 } from './openapi.ts';
import type { ResourceType } from './resources.ts';
import { statusError } from './status.ts';

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export const versionInfo = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0-kraftsman-emulator',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-30T00:00:00Z',
  goVersion: 'go1.22.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export function coreVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupDoc(group: string, types: readonly ResourceType[]): Record<string, unknown> {
  const versions = [...new Set(types.filter((t) => t.group === group).map((t) => t.version))].map(
    (version) => ({
      groupVersion: `${group}/${version}`,
      version,
    }),
  );
  return { name: group, versions, preferredVersion: versions[0] };
}

export function groupList(types: readonly ResourceType[]): Record<string, unknown> {
  const groups = [...new Set(types.map((t) => t.group).filter((g) => g !== ''))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => groupDoc(g, types)) };
}

export function group(types: readonly ResourceType[], name: string): Record<string, unknown> | undefined {
  return types.some((t) => t.group === name)
    ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(name, types) }
    : undefined;
}

export function resourceList(
  types: readonly ResourceType[],
  groupName: string,
  version: string,
): Record<string, unknown> | undefined {
  const mine = types.filter((t) => t.group === groupName && t.version === version);
  if (mine.length === 0) return undefined;
  const resources = mine.flatMap((t) => [
    {
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: VERBS,
      shortNames: t.shortNames,
    },
    ...t.subresources.map((sub) =>
      sub === 'eviction'
        ? {
            name: `${t.plural}/eviction`,
            singularName: '',
            namespaced: t.namespaced,
            group: 'policy',
            version: 'v1',
            kind: 'Eviction',
            verbs: ['create'],
          }
        : {
            name: `${t.plural}/status`,
            singularName: '',
            namespaced: t.namespaced,
            kind: t.kind,
            verbs: ['get', 'patch', 'update'],
          },
    ),
  ]);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupName ? `${groupName}/${version}` : version,
    resources,
  };
}

const notFound = (path: string) =>
  statusError(404, 'NotFound', `the server could not find the requested resource (${path})`);

/**
 * The document a GET of a discovery or OpenAPI path answers (openapi.ts for /openapi/v3), or undefined when the
 * path is a resource's; a discovery path for a group or version the server does not serve is a 404.
 */
export function discoveryDocument(
  path: string,
  types: readonly ResourceType[],
  serverUrl: string,
): Record<string, unknown> | undefined {
  if (path === '/version') return versionInfo;
  if (path === '/api') return coreVersions(serverUrl.replace(/^http:\/\//, ''));
  if (path === '/apis') return groupList(types);
  if (path === '/api/v1') return resourceList(types, '', 'v1');
  if (path === '/openapi/v3') return openApiV3(types).index;
  if (path.startsWith('/openapi/v3/')) {
    const doc = openApiV3(types).documents.get(path.slice('/openapi/v3/'.length));
    if (!doc) throw notFound(path);
    return doc;
  }
  const g = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (!g) return undefined;
  const doc = g[2] ? resourceList(types, g[1] as string, g[2]) : group(types, g[1] as string);
  if (!doc) throw notFound(path);
  return doc;
}
