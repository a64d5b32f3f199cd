// Which bootstrap family a node class renders, and what it lacks to produce a node that joins (docs/mechanisms/
// bootstrap.md): a node class that cannot join is NotReady, so no pool launches through it.
import type { AmiFamily, NodeClass } from './nodeclass.ts';
import { GCE_IMAGE_ALIASES } from './gce-images.ts';

/** Karpenter's alias prefixes (`al2023@latest`, `bottlerocket@v1.30.0`) → the family the image implies. */
const ALIAS_FAMILIES: Readonly<Record<string, AmiFamily>> = {
  al2023: 'AL2023',
  bottlerocket: 'Bottlerocket',
};

export interface FamilyChoice {
  readonly family: AmiFamily;
  /** Set when the node class names a family kraftsman cannot render (an alias such as `al2@latest`). */
  readonly problem?: string;
}

/**
 * The family of a node class. EC2NodeClass: an amiSelectorTerms alias decides (Karpenter's AMIFamily(): the alias
 * wins over spec.amiFamily), then spec.amiFamily. Without either (and always on GCENodeClass), a node class with
 * spec.bootstrap.script is Custom and any other Kubeadm: the self-managed clusters kraftsman was first written for.
 */
export function bootstrapFamily(nc: NodeClass): FamilyChoice {
  const fallback: AmiFamily = nc.spec.bootstrap?.script !== undefined ? 'Custom' : 'Kubeadm';
  if (nc.kind !== 'EC2NodeClass') return { family: fallback };
  const alias = nc.spec.amiSelectorTerms?.find((t) => t.alias)?.alias;
  if (alias) {
    const prefix = alias.split('@')[0]?.toLowerCase() ?? '';
    const family = ALIAS_FAMILIES[prefix];
    if (family) return { family };
    return {
      family: nc.spec.amiFamily ?? fallback,
      problem: `amiSelectorTerms alias ${JSON.stringify(alias)} names a family kraftsman does not render (al2023@…, bottlerocket@…)`,
    };
  }
  return { family: nc.spec.amiFamily ?? fallback };
}

/** The fields each family needs before a launch can join (paths under spec). */
function missingFields(nc: NodeClass, family: AmiFamily): string[] {
  const b = nc.spec.bootstrap ?? {};
  const need = (ok: unknown, field: string): string[] => (ok ? [] : [field]);
  switch (family) {
    case 'Kubeadm':
      // The token: spec.bootstrap.joinTokenSecretRef, or one the launcher issues per launch (always available).
      return [
        ...need(b.apiServerEndpoint, 'spec.bootstrap.apiServerEndpoint'),
        ...need(b.caCertHash, 'spec.bootstrap.caCertHash'),
      ];
    case 'AL2023':
      // Karpenter's nodeadm renderer refuses a NodeConfig without the cluster CIDR (NodeClassNotReady).
      return [
        ...need(b.apiServerEndpoint, 'spec.bootstrap.apiServerEndpoint'),
        ...need(b.caBundle, 'spec.bootstrap.caBundle'),
        ...need(b.serviceCIDR, 'spec.bootstrap.serviceCIDR'),
      ];
    case 'Bottlerocket':
      return [
        ...need(b.apiServerEndpoint, 'spec.bootstrap.apiServerEndpoint'),
        ...need(b.caBundle, 'spec.bootstrap.caBundle'),
      ];
    case 'Custom': {
      const user = nc.kind === 'EC2NodeClass' ? (nc.spec.userData ?? b.script) : b.script;
      return need(user?.trim(), nc.kind === 'EC2NodeClass' ? 'spec.userData' : 'spec.bootstrap.script');
    }
  }
}

/** Why nodes of this class could not join, one sentence; undefined when they can. */
export function joinProblem(nc: NodeClass): string | undefined {
  const { family, problem } = bootstrapFamily(nc);
  if (problem) return problem;
  const missing = missingFields(nc, family);
  if (missing.length > 0) return `${family} nodes cannot join without ${missing.join(', ')}`;
  // The public images an alias names (ubuntu-accelerator, cos) hold no kubeadm, kubelet or container runtime: a
  // Kubeadm node booting one could never join (docs/mechanisms/images.md#compute-engine).
  const alias = nc.kind === 'GCENodeClass' ? nc.spec.imageSelectorTerms?.[0]?.alias : undefined;
  if (family === 'Kubeadm' && alias && GCE_IMAGE_ALIASES.includes(alias.split('@')[0] ?? ''))
    return `Kubeadm nodes cannot join on image alias ${alias}: its public image holds no kubeadm, kubelet or container runtime (name your own image with an id term, or install them in spec.bootstrap.script, the Custom family)`;
  return undefined;
}

/** A kubeadm bootstrap token (`<id>.<secret>`, [a-z0-9]{6}.[a-z0-9]{16}) a Kubeadm node joins with. */
export interface JoinToken {
  readonly id: string;
  readonly secret: string;
}
export const JOIN_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
