// "An instance booted": the Node its kubelet would register — labels and taints from the bootstrap
// request (the kubelet's --node-labels / --register-with-taints), capacity from the instance type.
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';

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

/** Reads the kubelet flags out of a bootstrap script (plain or base64, as EC2 user data travels). */
export function parseBootstrap(userData: string): { labels: Record<string, string>; taints: TaintSpec[] } {
  const text = /--node-labels|--register-with-taints/.test(userData)
    ? userData
    : Buffer.from(userData, 'base64').toString('utf8');
  const flag = (name: string): string => new RegExp(`--${name}=([^\\s'"]*)`).exec(text)?.[1] ?? '';
  const labels: Record<string, string> = {};
  for (const pair of flag('node-labels').split(',').filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i > 0) labels[pair.slice(0, i)] = pair.slice(i + 1);
  }
  const taints = flag('register-with-taints')
    .split(',')
    .filter(Boolean)
    .map((t): TaintSpec => {
      const [kv = '', effect = 'NoSchedule'] = t.split(':');
      const [key = '', value] = kv.split('=');
      if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect))
        throw new Error(`bootstrap taint "${t}": unknown effect "${effect}"`);
      return { key, ...(value !== undefined ? { value } : {}), effect: effect as TaintSpec['effect'] };
    });
  return { labels, taints };
}

export function registerNode(emulator: KubeApiEmulator, r: NodeRegistration): KubeObject {
  const node: KubeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: r.nodeName,
      labels: {
        'kubernetes.io/hostname': r.nodeName,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
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
      nodeInfo: { kubeletVersion: 'v1.31.0', architecture: 'amd64', operatingSystem: 'linux' },
    },
  };
  return emulator.store.create(emulator.typeOf('Node'), undefined, node);
}
