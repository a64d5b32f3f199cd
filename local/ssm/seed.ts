// The public parameters Karpenter reads for its image aliases, and the EC2 images they name (docs/mechanisms/
// images.md): EKS-optimized Amazon Linux 2023 per Kubernetes version, architecture and variant (recommended and
// one dated release), Bottlerocket per version, architecture and NVIDIA flavour (latest and one 1.x release).
export const SEEDED_KUBERNETES_VERSIONS = ['1.32', '1.33', '1.34'] as const;
/** The dated AL2023 release seeded besides `recommended` (`al2023@v20261101`). */
export const AL2023_RELEASE = 'v20261101';
export const AL2023_LATEST = 'v20261201';
/** The Bottlerocket releases seeded: `latest` names the newer. */
export const BOTTLEROCKET_RELEASES = ['1.40.0', '1.41.0'] as const;

export interface SeededImage {
  readonly imageId: string;
  readonly name: string;
  readonly arch: 'x86_64' | 'arm64';
  readonly creationDate: string;
}

const AL2023_VARIANTS: Record<'x86_64' | 'arm64', readonly string[]> = {
  x86_64: ['standard', 'nvidia', 'neuron'],
  arm64: ['standard', 'nvidia'],
};

/** A stable, readable AMI id per image name (ami- and 17 hex digits, as EC2's). */
function amiId(name: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(name)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return `ami-${h.toString(16).padStart(16, '0').slice(0, 16)}0`;
}

export function publicImageParameters(): { parameters: Map<string, string>; images: SeededImage[] } {
  const parameters = new Map<string, string>();
  const images: SeededImage[] = [];
  const image = (name: string, arch: 'x86_64' | 'arm64', date: string): string => {
    const imageId = amiId(name);
    images.push({ imageId, name, arch, creationDate: date });
    return imageId;
  };
  for (const k8s of SEEDED_KUBERNETES_VERSIONS)
    for (const arch of ['x86_64', 'arm64'] as const)
      for (const variant of AL2023_VARIANTS[arch]) {
        const base = `/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/${arch}/${variant}`;
        for (const release of [AL2023_RELEASE, AL2023_LATEST]) {
          const name = `amazon-eks-node-al2023-${arch}-${variant}-${k8s}-${release}`;
          const date = `${release.slice(1, 5)}-${release.slice(5, 7)}-${release.slice(7, 9)}T00:00:00.000Z`;
          const id = image(name, arch, date);
          parameters.set(`${base}/${name}/image_id`, id);
          if (release === AL2023_LATEST) parameters.set(`${base}/recommended/image_id`, id);
        }
      }
  for (const k8s of SEEDED_KUBERNETES_VERSIONS)
    for (const flavour of ['', '-nvidia'])
      for (const arch of ['x86_64', 'arm64'] as const)
        for (const [i, release] of BOTTLEROCKET_RELEASES.entries()) {
          const name = `bottlerocket-aws-k8s-${k8s}${flavour}-${arch}-v${release}`;
          const id = image(name, arch, `2026-1${i}-15T00:00:00.000Z`);
          const base = `/aws/service/bottlerocket/aws-k8s-${k8s}${flavour}/${arch}`;
          parameters.set(`${base}/${release}/image_id`, id);
          if (i === BOTTLEROCKET_RELEASES.length - 1) parameters.set(`${base}/latest/image_id`, id);
        }
  return { parameters, images };
}

/** The local fleet's cluster version: one the seeded parameters cover. */
export const FLEET_KUBERNETES_VERSION = '1.33';
