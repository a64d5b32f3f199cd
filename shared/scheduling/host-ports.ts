// Host ports: two pods conflict on a node when they claim the same port and protocol on overlapping IPs.
import type { Pod } from '../model/pod.ts';

export interface HostPort {
  readonly ip: string;
  readonly port: number;
  readonly protocol: string;
}

export function hostPortsOf(spec: Pod['spec']): HostPort[] {
  const out: HostPort[] = [];
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      out.push({
        ip: p.hostIP && p.hostIP !== '' ? p.hostIP : '0.0.0.0',
        port: p.hostPort,
        protocol: p.protocol ?? 'TCP',
      });
    }
  }
  return out;
}

const overlaps = (a: HostPort, b: HostPort): boolean =>
  a.port === b.port &&
  a.protocol === b.protocol &&
  (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');

export function hostPortConflict(
  used: readonly HostPort[],
  wanted: readonly HostPort[],
): HostPort | undefined {
  for (const w of wanted) for (const u of used) if (overlaps(u, w)) return w;
  return undefined;
}
