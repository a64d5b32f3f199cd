// What every bootstrap family says about a node: the kubelet's own labels (NodeRestriction-safe), its registration
// taints, the join endpoint and CA, and the KRAFTSMAN_* environment a user's script sees.
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { KubeletConfiguration } from '../model/nodeclass-fields.ts';
import type { Taint } from '../model/meta.ts';

/**
 * Labels a kubelet may set on its own Node under the NodeRestriction admission plugin: any key outside the
 * kubernetes.io / k8s.io namespaces, and inside them only these (kubelet's --node-labels rule). The others are
 * applied by the lifecycle after registration, as Karpenter does.
 */
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

export interface JoinFacts {
  readonly cluster: string;
  readonly claimName: string;
  readonly apiServerEndpoint: string;
  readonly caBundle: string;
  readonly caCertHash: string;
  readonly serviceCIDR: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly maxPods?: number;
  /** The node class's kubelet configuration (EC2 spec.kubelet, GCE spec.kubeletConfiguration): each family renders it. */
  readonly kubelet: KubeletConfiguration;
  /** `--node-labels=… --register-with-taints=… [--max-pods=…]` and the kubelet configuration as flags (kubeletFlags). */
  readonly kubeletArgs: string;
}

export const labelsFlag = (labels: Readonly<Record<string, string>>): string =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
export const taintsFlag = (taints: readonly Taint[]): string =>
  taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(',');

export function joinFacts(cluster: string, claim: NodeClaim, nc: NodeClass): JoinFacts {
  const b = nc.spec.bootstrap ?? {};
  const kubelet = (nc.kind === 'EC2NodeClass' ? nc.spec.kubelet : nc.spec.kubeletConfiguration) ?? {};
  const maxPods = kubelet.maxPods;
  const labels = kubeletLabels(claim);
  const taints = registrationTaints(claim);
  return {
    cluster,
    claimName: claim.metadata.name,
    apiServerEndpoint: b.apiServerEndpoint ?? '',
    caBundle: b.caBundle ?? '',
    caCertHash: b.caCertHash ?? '',
    serviceCIDR: b.serviceCIDR ?? '',
    labels,
    taints,
    ...(maxPods ? { maxPods } : {}),
    kubelet,
    kubeletArgs: [
      `--node-labels=${labelsFlag(labels)}`,
      `--register-with-taints=${taintsFlag(taints)}`,
      ...(maxPods ? [`--max-pods=${maxPods}`] : []),
      ...kubeletFlags(kubelet),
    ].join(' '),
  };
}

const pairs = (m: Readonly<Record<string, string>>, sep: string): string =>
  Object.entries(m)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}${sep}${v}`)
    .join(',');

/**
 * The kubelet configuration (but maxPods, written above) as the kubelet's own command-line flags: what a Kubeadm node
 * passes through KUBELET_EXTRA_ARGS and a Custom script finds in KRAFTSMAN_KUBELET_ARGS (flags override kubeadm's
 * kubelet config file). Eviction thresholds read `signal<value`, grace periods `signal=duration`.
 */
export function kubeletFlags(k: KubeletConfiguration): string[] {
  const flags: string[] = [];
  const add = (flag: string, v: string | number | boolean | undefined) => {
    if (v !== undefined && v !== '') flags.push(`--${flag}=${String(v)}`);
  };
  add('pods-per-core', k.podsPerCore);
  add('system-reserved', k.systemReserved && pairs(k.systemReserved, '='));
  add('kube-reserved', k.kubeReserved && pairs(k.kubeReserved, '='));
  add('eviction-hard', k.evictionHard && pairs(k.evictionHard, '<'));
  add('eviction-soft', k.evictionSoft && pairs(k.evictionSoft, '<'));
  add('eviction-soft-grace-period', k.evictionSoftGracePeriod && pairs(k.evictionSoftGracePeriod, '='));
  add('eviction-max-pod-grace-period', k.evictionMaxPodGracePeriod);
  add('image-gc-high-threshold', k.imageGCHighThresholdPercent);
  add('image-gc-low-threshold', k.imageGCLowThresholdPercent);
  add('cpu-cfs-quota', k.cpuCFSQuota);
  add('cluster-dns', k.clusterDNS?.join(','));
  return flags;
}

/** The KRAFTSMAN_* environment every family's shell sees (docs/mechanisms/bootstrap.md#environment). */
export function kraftsmanEnv(f: JoinFacts): [string, string][] {
  return [
    ['KRAFTSMAN_CLUSTER', f.cluster],
    ['KRAFTSMAN_NODECLAIM', f.claimName],
    ['KRAFTSMAN_API_SERVER', f.apiServerEndpoint],
    ['KRAFTSMAN_CA_BUNDLE', f.caBundle],
    ['KRAFTSMAN_CA_CERT_HASH', f.caCertHash],
    ['KRAFTSMAN_NODE_LABELS', labelsFlag(f.labels)],
    ['KRAFTSMAN_NODE_TAINTS', taintsFlag(f.taints)],
    ['KRAFTSMAN_KUBELET_ARGS', f.kubeletArgs],
  ];
}

/** A POSIX shell single-quoted word. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export const exportLines = (env: readonly [string, string][]): string[] =>
  env.map(([k, v]) => `export ${k}=${shellQuote(v)}`);

/** Lines that write the environment to /etc/kraftsman/env (sourceable by sh, readable as a systemd EnvironmentFile). */
export function envFileLines(env: readonly [string, string][]): string[] {
  return [
    'mkdir -p "${KRAFTSMAN_ROOT:-}/etc/kraftsman"',
    `cat > "\${KRAFTSMAN_ROOT:-}/etc/kraftsman/env" <<'KRAFTSMAN_ENV'`,
    ...env.map(([k, v]) => `${k}=${shellQuote(v)}`),
    'KRAFTSMAN_ENV',
  ];
}
