// Valid objects the hostile cases start from, and the helpers that bend one field of them out of shape.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ChildInput } from './run-child.ts';

export type Obj = Record<string, unknown>;
export type Path = readonly (string | number)[];

export const pod = (name = 'web-0', namespace = 'default'): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, creationTimestamp: '2026-09-01T00:00:00Z' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
});

export const node = (name = 'node-a', providerID = `aws:///us-east-1a/i-${name}`): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: {
      'karpenter.sh/nodepool': 'gpu',
      'node.kubernetes.io/instance-type': 'g5.xlarge',
      'topology.kubernetes.io/zone': 'us-east-1a',
      'karpenter.sh/capacity-type': 'on-demand',
    },
    creationTimestamp: '2026-08-01T00:00:00Z',
  },
  spec: { providerID },
  status: { capacity: { cpu: '4', memory: '16Gi', pods: '58', 'nvidia.com/gpu': '1' } },
});

export const nodePool = (name = 'gpu'): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
        expireAfter: '720h',
      },
    },
    disruption: {
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: '0s',
      budgets: [{ nodes: '10%' }],
    },
  },
});

export const nodeClaim = (name = 'gpu-abcde'): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
  },
});

export const pdb = (): Obj => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
});

export const daemonSet = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'kube-system' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: pod().spec },
  },
});

/** A deep copy of `obj` with the value at `path` replaced (created when missing). */
export function withField(obj: Obj, path: Path, value: unknown): Obj {
  const copy = structuredClone(obj);
  let at: Record<string | number, unknown> = copy;
  path.slice(0, -1).forEach((key, i) => {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = typeof path[i + 1] === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  });
  at[path[path.length - 1] as string | number] = value;
  return copy;
}

export const list = (...items: Obj[]): Obj => ({ apiVersion: 'v1', kind: 'List', items });

const slug = (name: string): string => name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);

/** Writes `content` into `dir` under a name derived from the case; returns the path. */
export function write(dir: string, name: string, ext: string, content: string | Buffer): string {
  const path = join(dir, `${slug(name)}.${ext}`);
  writeFileSync(path, content);
  return path;
}

/** `simulate -f <the objects as a YAML List>`. */
export function simulateYaml(name: string, ...objects: Obj[]): (dir: string) => ChildInput {
  return (dir) => ({
    args: ['simulate', '-f', write(dir, name, 'yaml', stringify(list(...objects))), '-o', 'json'],
  });
}

export const escapeRegExp = (s: string): RegExp => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
