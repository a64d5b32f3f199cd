// The bootstrap script a new instance runs (EC2 user data, GCE startup-script), shared by both launchers: it
// registers the node with the claim's labels and taints on a self-managed cluster (node class spec.bootstrap).
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { Taint } from '../model/meta.ts';

export interface BootstrapSpec {
  readonly apiServerEndpoint?: string;
  readonly caBundle?: string;
  readonly joinTokenSecretRef?: { readonly name: string; readonly namespace?: string };
  /** Replaces the default kubelet configuration step; runs with the KRAFTSMAN_* variables set. */
  readonly script?: string;
}

const SELF_SETTABLE = [
  /^kubelet\.kubernetes\.io\//,
  /^node\.kubernetes\.io\//,
  /^node-restriction\.kubernetes\.io\//,
  /^topology\.kubernetes\.io\/(zone|region)$/,
  /^kubernetes\.io\/(arch|os|hostname)$/,
];
const RESTRICTED = /(^|\.)(kubernetes\.io|k8s\.io)\//;

/** Labels the kubelet may set on its own Node (NodeRestriction): the rest Karpenter-style lifecycle applies later. */
export function kubeletLabels(claim: NodeClaim): Record<string, string> {
  const labels: Record<string, string> = { ...(claim.metadata.labels ?? {}) };
  for (const r of claim.spec.requirements)
    if (r.operator === 'In' && r.values?.length === 1) labels[r.key] = r.values[0] as string;
  return Object.fromEntries(
    Object.entries(labels)
      .filter(([k]) => !RESTRICTED.test(k) || SELF_SETTABLE.some((p) => p.test(k)))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Taints to register with: the claim's, its startup taints, and karpenter.sh/unregistered until the lifecycle syncs it. */
export function registrationTaints(claim: NodeClaim): Taint[] {
  return [
    ...(claim.spec.taints ?? []),
    ...(claim.spec.startupTaints ?? []),
    { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
  ];
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function renderBootstrapScript(args: {
  cluster: string;
  claim: NodeClaim;
  bootstrap?: BootstrapSpec;
  userData?: string;
  maxPods?: number;
}): string {
  const labels = Object.entries(kubeletLabels(args.claim))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const taints = registrationTaints(args.claim)
    .map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`)
    .join(',');
  const kubeletArgs = [
    `--node-labels=${labels}`,
    `--register-with-taints=${taints}`,
    ...(args.maxPods ? [`--max-pods=${args.maxPods}`] : []),
  ].join(' ');
  const b = args.bootstrap ?? {};
  const env: [string, string][] = [
    ['KRAFTSMAN_CLUSTER', args.cluster],
    ['KRAFTSMAN_NODECLAIM', args.claim.metadata.name],
    ['KRAFTSMAN_API_SERVER', b.apiServerEndpoint ?? ''],
    ['KRAFTSMAN_CA_BUNDLE', b.caBundle ?? ''],
    [
      'KRAFTSMAN_JOIN_TOKEN_SECRET',
      b.joinTokenSecretRef
        ? `${b.joinTokenSecretRef.namespace ?? 'kube-system'}/${b.joinTokenSecretRef.name}`
        : '',
    ],
    ['KRAFTSMAN_NODE_LABELS', labels],
    ['KRAFTSMAN_NODE_TAINTS', taints],
    ['KRAFTSMAN_KUBELET_ARGS', kubeletArgs],
  ];
  const defaultStep = [
    'mkdir -p /etc/kubernetes/pki',
    '[ -n "$KRAFTSMAN_CA_BUNDLE" ] && echo "$KRAFTSMAN_CA_BUNDLE" | base64 -d > /etc/kubernetes/pki/ca.crt',
    'echo "KUBELET_EXTRA_ARGS=$KRAFTSMAN_KUBELET_ARGS" > /etc/default/kubelet',
    'systemctl daemon-reload && systemctl restart kubelet',
  ].join('\n');
  const user = (args.userData ?? '').replace(/^#!.*\n/, '');
  return [
    '#!/bin/bash',
    `# kraftsman bootstrap for NodeClaim ${args.claim.metadata.name}`,
    'set -euo pipefail',
    ...env.map(([k, v]) => `export ${k}=${quote(v)}`),
    ...(user ? ['# node class userData', user.trimEnd()] : []),
    b.script ?? defaultStep,
    '',
  ].join('\n');
}
