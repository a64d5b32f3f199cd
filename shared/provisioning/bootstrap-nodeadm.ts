// AL2023 family: nodeadm's NodeConfig (node.eks.aws/v1alpha1) in a MIME multipart document, merged with the
// user's userData as Karpenter's nodeadm.go merges it — the user's parts first, kraftsman's NodeConfig last (nodeadm
// merges NodeConfigs in document order, the last one winning), a non-MIME userData made one part of its own.
import { labelsFlag, type JoinFacts } from './bootstrap-facts.ts';
import { isMime, parseMime, serializeMime, shellPart, type MimePart } from './bootstrap-mime.ts';
import { toYaml, type YamlValue } from './bootstrap-yaml.ts';

export const NODECONFIG_CONTENT_TYPE = 'application/node.eks.aws';

/** Karpenter's fallback for a non-MIME userData: a NodeConfig when it reads as one, a shell script otherwise. */
const looksLikeNodeConfig = (text: string): boolean =>
  /^apiVersion:\s*["']?node\.eks\.aws\//m.test(text) && /^kind:\s*["']?NodeConfig\b/m.test(text);

function userParts(userData: string | undefined): MimePart[] {
  if (!userData?.trim()) return [];
  if (isMime(userData)) return parseMime(userData, 'spec.userData');
  if (looksLikeNodeConfig(userData))
    return [{ headers: [['Content-Type', NODECONFIG_CONTENT_TYPE]], body: userData }];
  return [shellPart(userData)];
}

/** The NodeConfig Karpenter generates: cluster details, inline kubelet config (registerWithTaints), label flag. */
export function nodeConfig(f: JoinFacts): { readonly [k: string]: YamlValue } {
  // Karpenter marshals the node class's whole KubeletConfiguration into the inline config (nodeadm.go
  // generateInlineKubeletConfiguration): its field names are the kubelet's own (KubeletConfiguration v1beta1).
  const config: Record<string, YamlValue> = {
    ...Object.fromEntries(
      Object.entries(f.kubelet).filter(([, v]) => v !== undefined) as [string, YamlValue][],
    ),
    ...(f.maxPods ? { maxPods: f.maxPods } : {}),
    registerWithTaints: f.taints.map((t) => ({
      key: t.key,
      ...(t.value ? { value: t.value } : {}),
      effect: t.effect,
    })),
  };
  const labels = labelsFlag(f.labels);
  return {
    apiVersion: 'node.eks.aws/v1alpha1',
    kind: 'NodeConfig',
    spec: {
      cluster: {
        name: f.cluster,
        apiServerEndpoint: f.apiServerEndpoint,
        certificateAuthority: f.caBundle,
        cidr: f.serviceCIDR,
      },
      kubelet: { config, ...(labels ? { flags: [`--node-labels=${labels}`] } : {}) },
    },
  };
}

export function renderNodeadm(f: JoinFacts, userData: string | undefined): string {
  const own: MimePart = {
    headers: [['Content-Type', NODECONFIG_CONTENT_TYPE]],
    body: `# kraftsman NodeConfig for NodeClaim ${f.claimName}\n---\n${toYaml(nodeConfig(f))}`,
  };
  return serializeMime([...userParts(userData), own]);
}
