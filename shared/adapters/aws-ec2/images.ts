// amiSelectorTerms → the images a node class launches (docs/mechanisms/images.md), as Karpenter's AMI provider
// resolves them: an alias (`al2023@latest`, `al2023@v20261101`, `bottlerocket@latest`, `bottlerocket@1.41.0`) through
// AWS's public SSM parameters for the cluster's Kubernetes version, every architecture and variant (standard, NVIDIA,
// Neuron); id / name / owner / tags terms through DescribeImages. Each image carries the requirements an instance
// type must meet to boot it; a launch picks, per instance type, the newest image it meets.
import { DescribeImagesCommand, type EC2Client, type Filter, type Image } from '@aws-sdk/client-ec2';
import { GetParametersCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { Call } from './ec2-context.ts';
import { NodeClassResolutionError } from './errors.ts';
import { allPages } from './pages.ts';

export type ImageVariant = 'standard' | 'nvidia' | 'neuron';
export type ImageArch = 'amd64' | 'arm64';

export const LABEL_GPU_COUNT = 'karpenter.k8s.aws/instance-gpu-count';
export const LABEL_ACCELERATOR_COUNT = 'karpenter.k8s.aws/instance-accelerator-count';

/** A node selector requirement in Karpenter's EC2NodeClass status.amis shape. */
export interface ImageRequirement {
  readonly key: string;
  readonly operator: 'In' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}

export interface ResolvedImage {
  readonly id: string;
  readonly name: string;
  readonly arch: ImageArch;
  readonly created: string;
  /** Set for an alias's images: which accelerators the image's drivers serve (Karpenter's Variant). */
  readonly variant?: ImageVariant;
  /** Karpenter's status.amis[].requirements: the architecture, and for an alias the variant's. */
  readonly requirements: readonly ImageRequirement[];
}

export interface ImageSources {
  /** SSM, for aliases (AWS's public parameters); without it an alias is refused. */
  readonly ssm?: SSMClient;
  /** The cluster's Kubernetes minor version (`1.33`): the public parameters are per version. */
  readonly kubernetesVersion?: string;
}

type Term = { id?: string; name?: string; alias?: string; owner?: string; tags?: Record<string, string> };

/** Karpenter's Variant.Requirements(). */
function variantRequirements(v: ImageVariant): ImageRequirement[] {
  if (v === 'nvidia') return [{ key: LABEL_GPU_COUNT, operator: 'Exists' }];
  if (v === 'neuron') return [{ key: LABEL_ACCELERATOR_COUNT, operator: 'Exists' }];
  return [
    { key: LABEL_ACCELERATOR_COUNT, operator: 'DoesNotExist' },
    { key: LABEL_GPU_COUNT, operator: 'DoesNotExist' },
  ];
}

const archOf = (a: string | undefined): ImageArch | undefined =>
  a === 'x86_64' ? 'amd64' : a === 'arm64' ? 'arm64' : undefined;

/**
 * The public parameter paths of an alias, each with the variants its image serves (Karpenter's AL2023 and
 * Bottlerocket DescribeImageQuery). AL2023 `latest` reads `recommended`; a dated version its named release.
 */
export function aliasParameters(alias: string, k8s: string): Map<string, readonly ImageVariant[]> {
  const [family = '', version = ''] = alias.split('@');
  const out = new Map<string, readonly ImageVariant[]>();
  if (family === 'al2023') {
    if (version !== 'latest' && !/^v\d{8}$/.test(version))
      throw new NodeClassResolutionError(
        `amiSelectorTerms alias ${alias}: the version must be "latest" or a release such as v20261101`,
      );
    const variants: Record<string, ImageVariant[]> = {
      x86_64: ['standard', 'nvidia', 'neuron'],
      arm64: ['standard', 'nvidia'],
    };
    for (const [arch, vs] of Object.entries(variants))
      for (const v of vs) {
        const leaf =
          version === 'latest' ? 'recommended' : `amazon-eks-node-al2023-${arch}-${v}-${k8s}-${version}`;
        out.set(`/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/${arch}/${v}/${leaf}/image_id`, [v]);
      }
    return out;
  }
  if (family === 'bottlerocket') {
    // Bottlerocket versions carry a "v" on GitHub but not in the parameter path: both are accepted.
    const v = version.replace(/^v/, '');
    if (v !== 'latest' && !/^\d+\.\d+\.\d+$/.test(v))
      throw new NodeClassResolutionError(
        `amiSelectorTerms alias ${alias}: the version must be "latest" or a release such as 1.41.0`,
      );
    const base = `/aws/service/bottlerocket/aws-k8s-${k8s}`;
    out.set(`${base}/x86_64/${v}/image_id`, ['standard', 'neuron']);
    out.set(`${base}/arm64/${v}/image_id`, ['standard']);
    out.set(`${base}-nvidia/x86_64/${v}/image_id`, ['nvidia']);
    out.set(`${base}-nvidia/arm64/${v}/image_id`, ['nvidia']);
    return out;
  }
  throw new NodeClassResolutionError(
    `amiSelectorTerms alias ${alias}: unknown family (kraftsman resolves al2023@… and bottlerocket@…)`,
  );
}

async function describe(
  ec2: EC2Client,
  call: Call,
  input: { ids?: string[]; owners?: string[]; filters: Filter[] },
): Promise<Image[]> {
  return allPages(
    call,
    'DescribeImages',
    (NextToken) =>
      ec2.send(
        new DescribeImagesCommand({
          ...(input.ids?.length ? { ImageIds: input.ids } : {}),
          ...(input.owners?.length ? { Owners: input.owners } : {}),
          Filters: input.filters.length > 0 ? input.filters : undefined,
          NextToken,
        }),
      ),
    (p) => p.Images,
  );
}

async function aliasImages(
  ec2: EC2Client,
  call: Call,
  alias: string,
  sources: ImageSources,
): Promise<ResolvedImage[]> {
  if (!sources.kubernetesVersion)
    throw new NodeClassResolutionError(
      `amiSelectorTerms alias ${alias} needs the cluster's Kubernetes version (KRAFTSMAN_KUBERNETES_VERSION, e.g. 1.33)`,
    );
  const ssm = sources.ssm;
  if (!ssm)
    throw new NodeClassResolutionError(`amiSelectorTerms alias ${alias}: this provider has no SSM client`);
  const paths = aliasParameters(alias, sources.kubernetesVersion);
  const variantsById = new Map<string, ImageVariant[]>();
  const names = [...paths.keys()];
  for (let i = 0; i < names.length; i += 10) {
    // A parameter AWS does not publish (Neuron on arm64, a release that never was) is in InvalidParameters: skipped.
    const out = await call('GetParameters', () =>
      ssm.send(new GetParametersCommand({ Names: names.slice(i, i + 10) })),
    );
    for (const p of out.Parameters ?? [])
      if (p.Name && p.Value)
        variantsById.set(p.Value, [...(variantsById.get(p.Value) ?? []), ...(paths.get(p.Name) ?? [])]);
  }
  if (variantsById.size === 0)
    throw new NodeClassResolutionError(
      `amiSelectorTerms alias ${alias}: no image is published for Kubernetes ${sources.kubernetesVersion} (no public SSM parameter answered)`,
    );
  const found = await describe(ec2, call, {
    filters: [{ Name: 'image-id', Values: [...variantsById.keys()] }],
  });
  const out: ResolvedImage[] = [];
  for (const i of found) {
    const arch = archOf(i.Architecture);
    if (!i.ImageId || !arch) continue;
    for (const variant of variantsById.get(i.ImageId) ?? [])
      out.push({
        id: i.ImageId,
        name: i.Name ?? '',
        arch,
        created: i.CreationDate ?? '',
        variant,
        requirements: [
          { key: 'kubernetes.io/arch', operator: 'In', values: [arch] },
          ...variantRequirements(variant),
        ],
      });
  }
  return out;
}

const tagFilters = (tags: Record<string, string> | undefined): Filter[] =>
  Object.entries(tags ?? {}).map(([k, v]) =>
    v === '*' ? { Name: 'tag-key', Values: [k] } : { Name: `tag:${k}`, Values: [v] },
  );

/** Every term's images (terms ORed, a term's fields ANDed), the newest per architecture and variant kept. */
export async function resolveImages(
  ec2: EC2Client,
  call: Call,
  where: string,
  terms: readonly Term[],
  sources: ImageSources,
): Promise<ResolvedImage[]> {
  const alias = terms.find((t) => t.alias)?.alias;
  // Karpenter's CRD rule: "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms".
  if (alias && (terms.length > 1 || Object.keys(terms[0] ?? {}).some((k) => k !== 'alias')))
    throw new NodeClassResolutionError(
      `${where}: an amiSelectorTerms alias cannot be combined with other terms or fields`,
    );
  const all: ResolvedImage[] = [];
  if (alias) all.push(...(await aliasImages(ec2, call, alias.toLowerCase(), sources)));
  else
    for (const t of terms) {
      // Karpenter: a name without an owner searches this account's and Amazon's images only.
      const owners = t.owner ? [t.owner] : t.name ? ['self', 'amazon'] : [];
      const filters = [...tagFilters(t.tags), ...(t.name ? [{ Name: 'name', Values: [t.name] }] : [])];
      for (const i of await describe(ec2, call, { ...(t.id ? { ids: [t.id] } : {}), owners, filters })) {
        const arch = archOf(i.Architecture);
        if (!i.ImageId || !arch) continue;
        all.push({
          id: i.ImageId,
          name: i.Name ?? '',
          arch,
          created: i.CreationDate ?? '',
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: [arch] }],
        });
      }
    }
  // Karpenter launches the newest image of each requirement set.
  const newest = new Map<string, ResolvedImage>();
  for (const i of all.sort((a, b) => b.created.localeCompare(a.created) || a.id.localeCompare(b.id))) {
    const key = `${i.arch}|${i.variant ?? ''}`;
    if (!newest.has(key)) newest.set(key, i);
  }
  if (newest.size === 0) throw new NodeClassResolutionError(`${where}: amiSelectorTerms select no image`);
  return [...newest.values()];
}

/** Whether an instance type can boot the image: its architecture, and its accelerators against the variant's. */
export function bootsOn(image: ResolvedImage, type: InstanceTypeSpec): boolean {
  if (image.arch !== (type.arch ?? 'amd64')) return false;
  const has = (label: string): boolean => Number(type.labels?.[label] ?? 0) > 0;
  return image.requirements.every((r) =>
    r.key === 'kubernetes.io/arch'
      ? true
      : r.operator === 'Exists'
        ? has(r.key)
        : r.operator === 'DoesNotExist'
          ? !has(r.key)
          : (r.values ?? []).includes(type.labels?.[r.key] ?? ''),
  );
}

/** The newest image the instance type boots, or undefined when none of the node class's images fits it. */
export function imageFor(
  images: readonly ResolvedImage[],
  type: InstanceTypeSpec,
): ResolvedImage | undefined {
  return [...images]
    .filter((i) => bootsOn(i, type))
    .sort((a, b) => b.created.localeCompare(a.created) || a.id.localeCompare(b.id))[0];
}
