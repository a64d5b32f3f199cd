// Bottlerocket family: its TOML settings, merged into the user's as Karpenter's bottlerocket.go merges them — the
// user's keys kept, except those kraftsman must own: cluster-name, api-server, cluster-certificate (overwritten),
// node-labels (kraftsman's win on a clash), node-taints (replaced whole), max-pods and the kubelet settings the node
// class sets (kubeletSettings),
// autoscaling.should-wait (false: no Auto Scaling group will ever signal it).
import type { JoinFacts } from './bootstrap-facts.ts';
import type { KubeletConfiguration } from '../model/nodeclass-fields.ts';
import { isTable, parseToml, writeToml, type TomlTable } from './bootstrap-toml.ts';

function tableIn(parent: TomlTable, key: string, where: string): TomlTable {
  const v = parent[key] ?? (parent[key] = {});
  if (!isTable(v)) throw new Error(`${where}.${key} must be a table`);
  return v;
}

/**
 * The kubelet configuration as Bottlerocket's settings.kubernetes keys, set as Karpenter's bottlerocket.go sets them
 * (the node class wins over the user's TOML; image-GC thresholds as strings). Every DNS address is kept: Bottlerocket
 * reads cluster-dns-ip as one address or a list (Karpenter writes only the first).
 */
function kubeletSettings(k8s: TomlTable, k: KubeletConfiguration): void {
  const set = (key: string, v: TomlTable[string] | undefined) => {
    if (v !== undefined) k8s[key] = v;
  };
  const dns = k.clusterDNS ?? [];
  set('cluster-dns-ip', dns.length === 0 ? undefined : dns.length === 1 ? dns[0] : [...dns]);
  set('system-reserved', k.systemReserved && { ...k.systemReserved });
  set('kube-reserved', k.kubeReserved && { ...k.kubeReserved });
  set('eviction-hard', k.evictionHard && { ...k.evictionHard });
  set('eviction-soft', k.evictionSoft && { ...k.evictionSoft });
  set('eviction-soft-grace-period', k.evictionSoftGracePeriod && { ...k.evictionSoftGracePeriod });
  set('eviction-max-pod-grace-period', k.evictionMaxPodGracePeriod);
  set('image-gc-high-threshold-percent', k.imageGCHighThresholdPercent?.toString());
  set('image-gc-low-threshold-percent', k.imageGCLowThresholdPercent?.toString());
  set('cpu-cfs-quota-enforced', k.cpuCFSQuota);
}

export function bottlerocketSettings(f: JoinFacts, userData: string | undefined): TomlTable {
  const doc = userData?.trim() ? parseToml(userData, 'spec.userData') : {};
  const settings = tableIn(doc, 'settings', 'settings');
  const k8s = tableIn(settings, 'kubernetes', 'settings');
  k8s['cluster-name'] = f.cluster;
  k8s['api-server'] = f.apiServerEndpoint;
  k8s['cluster-certificate'] = f.caBundle;
  if (f.maxPods) k8s['max-pods'] = f.maxPods;
  kubeletSettings(k8s, f.kubelet);
  const labels = tableIn(k8s, 'node-labels', 'settings.kubernetes');
  Object.assign(labels, f.labels);
  const taints: TomlTable = {};
  for (const t of f.taints) {
    const list = (taints[t.key] ?? []) as string[];
    list.push(`${t.value ?? ''}:${t.effect}`);
    taints[t.key] = list;
  }
  k8s['node-taints'] = taints;
  const autoscaling = settings.autoscaling;
  if (isTable(autoscaling) && 'should-wait' in autoscaling) autoscaling['should-wait'] = false;
  return doc;
}

export function renderBottlerocket(f: JoinFacts, userData: string | undefined): string {
  return `# kraftsman settings for NodeClaim ${f.claimName}\n${writeToml(bottlerocketSettings(f, userData))}`;
}
