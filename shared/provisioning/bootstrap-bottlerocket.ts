// Bottlerocket family: its TOML settings, merged into the user's as Karpenter's bottlerocket.go merges them — the
// user's keys kept, except those kraftsman must own: cluster-name, api-server, cluster-certificate (overwritten),
// node-labels (kraftsman's win on a clash), node-taints (replaced whole), max-pods when the node class sets it,
// autoscaling.should-wait (false: no Auto Scaling group will ever signal it).
import type { JoinFacts } from './bootstrap-facts.ts';
import { isTable, parseToml, writeToml, type TomlTable } from './bootstrap-toml.ts';

function tableIn(parent: TomlTable, key: string, where: string): TomlTable {
  const v = parent[key] ?? (parent[key] = {});
  if (!isTable(v)) throw new Error(`${where}.${key} must be a table`);
  return v;
}

export function bottlerocketSettings(f: JoinFacts, userData: string | undefined): TomlTable {
  const doc = userData?.trim() ? parseToml(userData, 'spec.userData') : {};
  const settings = tableIn(doc, 'settings', 'settings');
  const k8s = tableIn(settings, 'kubernetes', 'settings');
  k8s['cluster-name'] = f.cluster;
  k8s['api-server'] = f.apiServerEndpoint;
  k8s['cluster-certificate'] = f.caBundle;
  if (f.maxPods) k8s['max-pods'] = f.maxPods;
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
