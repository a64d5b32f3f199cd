// "An instance booted": the Node its kubelet would register — labels and taints from the bootstrap
// request (a NodeConfig, Bottlerocket settings, or the kubelet's --node-labels / --register-with-taints in a
// script), capacity from the instance type.
import { createHash } from 'node:crypto';
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';
import { parse } from 'yaml';
import { isMime, parseMime } from '../../../shared/provisioning/bootstrap-mime.ts';
import { parseToml, type TomlTable } from '../../../shared/provisioning/bootstrap-toml.ts';

export interface TaintSpec {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodeRegistration {
  readonly nodeName: string;
  readonly providerId: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly TaintSpec[];
  readonly capacity: Readonly<Record<string, string>>;
  /** Defaults to capacity. */
  readonly allocatable?: Readonly<Record<string, string>>;
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

function effectOf(effect: string, what: string): TaintSpec['effect'] {
  if (!(EFFECTS as readonly string[]).includes(effect))
    throw new Error(`bootstrap taint "${what}": unknown effect "${effect}"`);
  return effect as TaintSpec['effect'];
}

function labelPairs(flag: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of flag.split(',').filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i > 0) labels[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return labels;
}

/** kubelet flags in a shell script (Kubeadm, Custom's KRAFTSMAN_KUBELET_ARGS, the user's own script). */
function fromFlags(text: string): Bootstrapped {
  const flag = (name: string): string => new RegExp(`--${name}=([^\\s'"]*)`).exec(text)?.[1] ?? '';
  const taints = flag('register-with-taints')
    .split(',')
    .filter(Boolean)
    .map((t): TaintSpec => {
      const [kv = '', effect = 'NoSchedule'] = t.split(':');
      const [key = '', value] = kv.split('=');
      return { key, ...(value !== undefined ? { value } : {}), effect: effectOf(effect, t) };
    });
  return { labels: labelPairs(flag('node-labels')), taints };
}

/** nodeadm's NodeConfig parts of a MIME document, merged in order as nodeadm merges them (the last one wins). */
function fromNodeConfig(text: string): Bootstrapped | undefined {
  if (!isMime(text)) return undefined;
  const configs = parseMime(text, 'user data').filter((p) =>
    p.headers.some(
      ([k, v]) => k.toLowerCase() === 'content-type' && v.startsWith('application/node.eks.aws'),
    ),
  );
  if (configs.length === 0) return undefined;
  let flags: string[] = [];
  let taints: TaintSpec[] = [];
  for (const c of configs) {
    const doc = parse(c.body) as {
      spec?: { kubelet?: { flags?: string[]; config?: { registerWithTaints?: TaintSpec[] } } };
    } | null;
    flags = doc?.spec?.kubelet?.flags ?? flags;
    taints = doc?.spec?.kubelet?.config?.registerWithTaints ?? taints;
  }
  const label = flags.find((f) => f.startsWith('--node-labels='))?.slice('--node-labels='.length) ?? '';
  return {
    labels: labelPairs(label),
    taints: taints.map((t) => ({ ...t, effect: effectOf(t.effect, t.key) })),
  };
}

/** Bottlerocket's settings.kubernetes node-labels and node-taints (`key = ["value:Effect"]`). */
function fromBottlerocket(text: string): Bootstrapped | undefined {
  if (!/^\[settings\.kubernetes/m.test(text)) return undefined;
  const k8s = ((parseToml(text, 'user data').settings ?? {}) as TomlTable).kubernetes as
    TomlTable | undefined;
  const labels = (k8s?.['node-labels'] ?? {}) as Record<string, string>;
  const taints = Object.entries((k8s?.['node-taints'] ?? {}) as Record<string, string[]>).flatMap(
    ([key, vs]) =>
      vs.map((v): TaintSpec => {
        const [value = '', effect = ''] = v.split(':');
        return { key, ...(value ? { value } : {}), effect: effectOf(effect, `${key}=${v}`) };
      }),
  );
  return { labels: { ...labels }, taints };
}

export interface Bootstrapped {
  labels: Record<string, string>;
  taints: TaintSpec[];
}

/**
 * The labels and taints a booting kubelet registers with, read out of the user data kraftsman rendered (plain, or
 * base64 as EC2 user data travels): a NodeConfig (AL2023), Bottlerocket TOML, or kubelet flags in a script.
 */
export function parseBootstrap(userData: string): Bootstrapped {
  const plain = /--node-labels|--register-with-taints|^\[settings|^MIME-Version/m.test(userData)
    ? userData
    : Buffer.from(userData, 'base64').toString('utf8');
  return fromNodeConfig(plain) ?? fromBottlerocket(plain) ?? fromFlags(plain);
}

/** A private address for the node, fixed by its provider ID (the emulated clouds assign none). */
function internalIp(providerId: string): string {
  const h = createHash('sha256').update(providerId).digest();
  return `10.${h[0]}.${h[1]}.${((h[2] as number) % 254) + 1}`;
}

/** The region of an AWS (`us-east-1a`) or Compute Engine (`us-central1-a`) zone, as the cloud controller labels it. */
const regionOf = (zone: string | undefined): string | undefined =>
  zone === undefined
    ? undefined
    : /^[a-z]+-[a-z]+\d+-[a-z]$/.test(zone)
      ? zone.slice(0, -2)
      : zone.replace(/[a-z]$/, '');

/**
 * Registers the Node as a kubelet and the cloud controller manager would leave it: the kubelet's labels (hostname,
 * os, arch and their beta forms), the cloud's (instance type, zone, region), the InternalIP and Hostname
 * addresses, Ready, and the kubelet's version.
 */
export function registerNode(emulator: KubeApiEmulator, r: NodeRegistration): KubeObject {
  const region = regionOf(r.labels?.['topology.kubernetes.io/zone']);
  const node: KubeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: r.nodeName,
      labels: {
        'kubernetes.io/hostname': r.nodeName,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        ...(region ? { 'topology.kubernetes.io/region': region } : {}),
        ...r.labels,
      },
    },
    spec: {
      providerID: r.providerId,
      ...(r.taints && r.taints.length > 0 ? { taints: r.taints.map((t) => ({ ...t })) } : {}),
    },
    status: {
      capacity: { ...r.capacity },
      allocatable: { ...(r.allocatable ?? r.capacity) },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      addresses: [
        { type: 'InternalIP', address: internalIp(r.providerId) },
        { type: 'Hostname', address: r.nodeName },
      ],
      nodeInfo: { kubeletVersion: 'v1.31.0', architecture: 'amd64', operatingSystem: 'linux' },
    },
  };
  return emulator.store.create(emulator.typeOf('Node'), undefined, node);
}
