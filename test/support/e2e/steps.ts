// Steps the lifecycle end-to-end tests repeat: one invocation of each handler with a Lambda-shaped event,
// bringing pods up onto registered, initialized Nodes, and reading claims, Nodes and instances back.
import type { KubeObject } from '../../../local/kube-api/index.ts';
import type { WatchSettings } from '../../../shared/loop/provision.ts';
import type { LifecycleSettings } from '../../../shared/loop/lifecycle.ts';
import type { KubeCluster } from '../../../shared/adapters/kube/index.ts';
import { lifecycleHandler, provisionHandler } from './functions.ts';
import type { E2eHarness } from './harness.ts';
import { lambdaContext, scheduledEvent, sqsBatch } from './lambda-events.ts';

export async function provisionOnce(h: E2eHarness, watch: Partial<WatchSettings> = {}) {
  const ctx = lambdaContext('provision');
  const result = await provisionHandler(h, watch)(scheduledEvent(h.clock), ctx);
  await h.invoker.settled();
  return { result, requestId: ctx.awsRequestId };
}

export async function lifecycleOnce(
  h: E2eHarness,
  settings: Partial<LifecycleSettings> = {},
  cluster?: KubeCluster,
) {
  const ctx = lambdaContext('lifecycle');
  const event = scheduledEvent(h.clock);
  const result = await lifecycleHandler(h, settings, cluster)(event, ctx);
  return { result, requestId: ctx.awsRequestId, passId: event.id as string };
}

/** One SQS delivery of the interruption queue: bodies are EventBridge events (or raw strings). */
export async function interruptionBatch(h: E2eHarness, bodies: readonly unknown[]) {
  const batch = sqsBatch(bodies);
  const ctx = lambdaContext('lifecycle');
  const response = await lifecycleHandler(h)(batch, ctx);
  if (!('batchItemFailures' in response)) throw new Error('an SQS batch must answer with batchItemFailures');
  return { response, ids: batch.Records.map((r) => String(r.messageId)), requestId: ctx.awsRequestId };
}

export const labelsOf = (o: KubeObject): Record<string, string> =>
  (o.metadata.labels as Record<string, string> | undefined) ?? {};
export const annotationsOf = (o: KubeObject): Record<string, string> =>
  (o.metadata.annotations as Record<string, string> | undefined) ?? {};
export const providerIdOf = (claim: KubeObject | undefined): string | undefined =>
  (claim?.status as { providerID?: string } | undefined)?.providerID;
export const taintsOf = (node: KubeObject): { key: string; effect: string }[] =>
  (node.spec as { taints?: { key: string; effect: string }[] } | undefined)?.taints ?? [];

export const claimNames = (h: E2eHarness): Set<string> =>
  new Set(h.list('NodeClaim').map((c) => String(c.metadata.name)));
export const claimOfPool = (h: E2eHarness, pool: string): KubeObject[] =>
  h.list('NodeClaim').filter((c) => labelsOf(c)['karpenter.sh/nodepool'] === pool);
export const nodeOf = (h: E2eHarness, claim: KubeObject): KubeObject | undefined =>
  h.list('Node').find((n) => (n.spec as { providerID?: string }).providerID === providerIdOf(claim));
export const podsOn = (h: E2eHarness, node: string): KubeObject[] =>
  h.list('Pod').filter((p) => (p.spec as { nodeName?: string }).nodeName === node);

/** Pending pods go at once (no grace period): a test removes the demand it no longer wants provisioned. */
export function deletePods(h: E2eHarness, names: readonly string[]): void {
  for (const name of names) h.kube.store.delete(h.kube.typeOf('Pod'), 'default', name);
}

/** The EC2 instance id or GCE instance name at the end of a providerID. */
export const instanceOf = (providerId: string | undefined): string => providerId?.split('/').at(-1) ?? '';

/** Provision, wait for the booted instances' Nodes, register and initialize them, bind the pods. */
export async function bringUp(h: E2eHarness, objects: readonly KubeObject[]): Promise<KubeObject[]> {
  const before = claimNames(h);
  h.seed(objects);
  await provisionOnce(h);
  const fresh = () => h.list('NodeClaim').filter((c) => !before.has(String(c.metadata.name)));
  const nodes = () => fresh().filter((c) => nodeOf(h, c) !== undefined).length;
  const wanted = fresh().length;
  for (let i = 0; i < 200 && nodes() < wanted; i++) await new Promise((r) => setTimeout(r, 25));
  // Registered (the unregistered taint gone), a Node takes pods as kube-scheduler would bind them; the next
  // run initializes it and measures their startup.
  await lifecycleOnce(h);
  h.bind();
  await lifecycleOnce(h);
  h.bind();
  return fresh();
}
