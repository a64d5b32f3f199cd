// What a person reads back after an e2e run: the events about an object, as `kubectl get events
// --field-selector involvedObject.name=X` asks the API server for them, and a node's story in the decision log.
import { DECISION_MESSAGE } from '../../../shared/loop/decision-log.ts';
import type { E2eHarness } from './harness.ts';

export interface ReadEvent {
  readonly reason: string;
  readonly message: string;
  readonly type: string;
  readonly count?: number;
  readonly involvedObject: { readonly kind: string; readonly name: string };
}

/** GET /api/v1/events?fieldSelector=involvedObject.name=<name>, every namespace. */
export async function eventsAbout(h: E2eHarness, name: string): Promise<ReadEvent[]> {
  const s = h.settings.cluster as { server: string; token: string };
  const url = `${s.server}/api/v1/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`;
  const res = await fetch(url, { headers: { Authorization: `Bearer ${s.token}` } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { items: ReadEvent[] }).items;
}

/** The decision-log lines naming a node among their candidates, in order: [decision, commandId]. */
export function storyOf(h: E2eHarness, node: string): { decision: string; commandId?: string }[] {
  return h.logger.entries
    .filter((e) => e.message === DECISION_MESSAGE && (e.fields.candidates as string[]).includes(node))
    .map((e) => ({
      decision: String(e.fields.decision),
      ...(e.fields.commandId ? { commandId: String(e.fields.commandId) } : {}),
    }));
}
