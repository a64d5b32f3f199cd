// The pods a run ends with pending, each with the reason provisioning gave for it: the message of its latest
// `FailedScheduling` event (shared/loop/provision-events.ts), read back from the Kubernetes emulator. The report
// lists them under its verdict (docs/fleet.md "The report").
import type { KubeApiEmulator } from '../kube-api/index.ts';

type EventFields = {
  reason?: string;
  message?: string;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string };
};
type PodFields = {
  metadata: { name?: unknown; namespace?: unknown };
  spec?: { nodeName?: string };
  status?: { phase?: string };
};

const FAILED_PREFIX = 'Failed to schedule pod, ';

export function unprovisionablePods(kube: KubeApiEmulator, limit: number): { pod: string; reason: string }[] {
  const pending = new Set<string>();
  for (const p of kube.store.all(kube.typeOf('Pod')) as PodFields[])
    if (!p.spec?.nodeName && (p.status?.phase ?? 'Pending') === 'Pending')
      pending.add(`${String(p.metadata.namespace ?? 'default')}/${String(p.metadata.name)}`);
  const latest = new Map<string, { at: string; reason: string }>();
  for (const e of kube.store.all(kube.typeOf('Event')) as EventFields[]) {
    const o = e.involvedObject;
    if (e.reason !== 'FailedScheduling' || o?.kind !== 'Pod') continue;
    const key = `${o.namespace ?? 'default'}/${o.name ?? ''}`;
    if (!pending.has(key)) continue;
    const at = e.lastTimestamp ?? e.eventTime ?? '';
    const seen = latest.get(key);
    const message = e.message ?? '';
    if (!seen || at >= seen.at)
      latest.set(key, {
        at,
        reason: message.startsWith(FAILED_PREFIX) ? message.slice(FAILED_PREFIX.length) : message,
      });
  }
  return [...latest]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([pod, v]) => ({ pod, reason: v.reason }));
}
