// Nodes and instances no destructive path may touch because an object about them fails validation
// (docs/mechanisms/identity.md#invalid-objects): a skipped NodeClaim makes its Node look unowned, a skipped
// Node makes its claim look node-less, a skipped Pod makes its Node look emptier. Each stays untouchable until
// the object parses again.
import { NODEPOOL } from '../model/labels.ts';
import type { InvalidObject, SnapshotRead } from '../ports/cluster/index.ts';
import type { ClusterObjects } from '../state/objects.ts';

/** What a destructive action is about: any of its Node's name, its instance's provider ID, its claim's name. */
export interface Target {
  readonly node?: string | undefined;
  readonly providerId?: string | undefined;
  readonly claim?: string | undefined;
}

export interface Untouchable {
  /** Node names no destructive path may touch (the disruption pass's candidates skip them too). */
  readonly nodes: ReadonlySet<string>;
  /** The invalid object that makes the target untouchable, or undefined when nothing does. */
  because(target: Target): InvalidObject | undefined;
}

const NODE_CLASS_KINDS: ReadonlySet<string> = new Set(['EC2NodeClass', 'GCENodeClass']);

/** The NodePools an invalid NodePool or node class concerns: all of theirs are untouchable. */
function poolsOf(o: InvalidObject, objects: ClusterObjects): string[] {
  if (o.kind === 'NodePool') return [o.name];
  if (!NODE_CLASS_KINDS.has(o.kind)) return [];
  return objects.nodePools
    .filter((p) => {
      const ref = p.spec.template.spec.nodeClassRef;
      return ref.kind === o.kind && ref.name === o.name;
    })
    .map((p) => p.metadata.name);
}

/** The invalid object behind each untouchable node name, provider ID and claim name. */
class Marks {
  readonly byNode = new Map<string, InvalidObject>();
  readonly byProvider = new Map<string, InvalidObject>();
  readonly byClaim = new Map<string, InvalidObject>();

  mark(o: InvalidObject, t: Target): void {
    if (t.node && !this.byNode.has(t.node)) this.byNode.set(t.node, o);
    if (t.providerId && !this.byProvider.has(t.providerId)) this.byProvider.set(t.providerId, o);
    if (t.claim && !this.byClaim.has(t.claim)) this.byClaim.set(t.claim, o);
  }

  find(t: Target): InvalidObject | undefined {
    return (
      (t.node ? this.byNode.get(t.node) : undefined) ??
      (t.providerId ? this.byProvider.get(t.providerId) : undefined) ??
      (t.claim ? this.byClaim.get(t.claim) : undefined)
    );
  }
}

/** What each invalid object names itself, and, for a NodePool or node class, every node and claim of its pools. */
function markInvalid(marks: Marks, invalid: readonly InvalidObject[], objects: ClusterObjects): void {
  for (const o of invalid) {
    for (const node of o.nodes) marks.mark(o, { node });
    for (const providerId of o.providerIds) marks.mark(o, { providerId });
    if (o.kind === 'NodeClaim') marks.mark(o, { claim: o.name });
    const pools = new Set(poolsOf(o, objects));
    if (pools.size === 0) continue;
    for (const n of objects.nodes)
      if (pools.has(n.metadata.labels?.[NODEPOOL] ?? ''))
        marks.mark(o, { node: n.metadata.name, providerId: n.spec?.providerID });
    for (const c of objects.nodeClaims)
      if (pools.has(c.metadata.labels?.[NODEPOOL] ?? '')) marks.mark(o, { claim: c.metadata.name });
  }
}

/**
 * Closes over the links the view holds: a Node and its instance, a claim and its Node and instance. Nodes
 * first (an invalid pod names a Node, whose instance names its claim), then claims, then Nodes again.
 */
function linkView(marks: Marks, objects: ClusterObjects): void {
  const linkNodes = (): void => {
    for (const n of objects.nodes) {
      const o = marks.find({ node: n.metadata.name, providerId: n.spec?.providerID });
      if (o) marks.mark(o, { node: n.metadata.name, providerId: n.spec?.providerID });
    }
  };
  linkNodes();
  for (const c of objects.nodeClaims) {
    const t = { node: c.status?.nodeName, providerId: c.status?.providerID, claim: c.metadata.name };
    const o = marks.find(t);
    if (o) marks.mark(o, t);
  }
  linkNodes();
}

export function untouchable(read: Pick<SnapshotRead, 'objects' | 'invalid'>): Untouchable {
  const marks = new Marks();
  markInvalid(marks, read.invalid, read.objects);
  linkView(marks, read.objects);
  return { nodes: new Set(marks.byNode.keys()), because: (t) => marks.find(t) };
}

/**
 * The node names the disruption pass and orchestration must leave alone: what orchestrate calls before it
 * drains or deletes (it reads the snapshot the same way).
 */
export function untouchableNodes(read: Pick<SnapshotRead, 'objects' | 'invalid'>): ReadonlySet<string> {
  return untouchable(read).nodes;
}
