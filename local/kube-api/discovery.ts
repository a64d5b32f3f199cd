// Discovery documents (/api, /apis, /api/v1, /apis/<group>[/<version>], /version) built from the
// registered resource types, so kubectl and KubernetesObjectApi can map kinds to paths.
import type { ResourceType } from './resources.ts';

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
