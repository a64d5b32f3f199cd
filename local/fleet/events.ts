// A scenario's timeline of what a cloud or an operator does to the running fleet (docs/fleet-scenarios.md):
// a spot interruption warning (EC2's EventBridge event, which lifecycle takes from the queue), a Compute Engine
// preemption (the zonal operation lifecycle reads), an instance terminated out of band under a command, an
// offering out of capacity, a NodePool edited. Each goes through the emulators' own APIs, never into kraftsman.
// The timeline also keeps what it saw: every termination cause stamped on a Node or NodeClaim, before it went.
import type { KubeApiEmulator, KubeObject } from '../kube-api/index.ts';
import { DISRUPTED_TAINT_KEY, TERMINATION_CAUSE, type Cloud } from '../../shared/model/labels.ts';
import type { FleetEnvironment } from './environment.ts';

export type Injection =
  /** EC2: an interruption warning now, the instance reclaimed at the end of the two-minute notice. GCE: a preemption. */
  | { readonly kind: 'spot-interruption'; readonly cloud: Cloud; readonly pool?: string }
  /** At the first minute a Node of `cloud` is tainted disrupted (a command's candidate): its instance is terminated out of band. */
  | { readonly kind: 'terminate-candidate'; readonly cloud: Cloud }
  /** Every offering of these types, in every zone and capacity type, has only `left` instances left. */
  | { readonly kind: 'capacity'; readonly types: readonly string[]; readonly left: number }
  /** An operator edits a NodePool so `type` (default: its least-loaded node's) is no longer allowed: its nodes drift. */
  | { readonly kind: 'drop-type'; readonly pool: string; readonly type?: string };

export interface TimelineEntry {
  /** The simulated minute from which the injection happens (a conditional one waits for its condition). */
  readonly at: number;
  readonly inject: Injection;
}

export interface Injected {
  readonly minute: number;
  readonly kind: Injection['kind'];
  readonly at: string;
  readonly cloud?: Cloud;
  readonly node?: string;
  /** The NodeClaim that held the node's instance then. */
  readonly claim?: string;
  readonly providerID?: string;
  /** The instance type a NodePool edit dropped. */
  readonly type?: string;
  /** The non-DaemonSet pods bound to the node at that moment. */
  readonly pods?: readonly string[];
}

export interface TimelineRecord {
  readonly injected: Injected[];
  /** The first termination cause seen on each Node and NodeClaim (`Node/<name>`, `NodeClaim/<name>`). */
  readonly causes: Map<string, string>;
  /** Spot instances still running at the end of their interruption notice (the cloud then reclaimed them). */
  readonly outlivedNotice: string[];
}

/** EC2 gives two minutes' notice; the emulator's own timer is wall-clock, so the timeline keeps the deadline. */
export const SPOT_NOTICE_MS = 120_000;

type NodeFields = KubeObject & {
  metadata: { labels?: Record<string, string> };
  spec?: { providerID?: string; taints?: { key: string }[]; nodeName?: string };
};
type PodFields = KubeObject & {
  spec?: { nodeName?: string };
  metadata: { ownerReferences?: { kind?: string }[] };
};

const all = (kube: KubeApiEmulator, kind: string): NodeFields[] =>
  kube.store.all(kube.typeOf(kind)) as NodeFields[];
const cloudOf = (n: NodeFields): Cloud | undefined =>
  n.spec?.providerID?.startsWith('aws://')
    ? 'aws'
    : n.spec?.providerID?.startsWith('gce://')
      ? 'gcp'
      : undefined;
const tainted = (n: NodeFields) => n.spec?.taints?.some((t) => t.key === DISRUPTED_TAINT_KEY) ?? false;

export function podsOn(kube: KubeApiEmulator, node: string): string[] {
  return workloadOn(podsByNode(kube).get(node) ?? []);
}

/** The node's pods that are not going and not DaemonSet-owned, as namespace/name. */
const workloadOn = (pods: readonly PodFields[]): string[] =>
  pods
    .filter((p) => !p.metadata.deletionTimestamp)
    .filter((p) => !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'))
    .map((p) => `${String(p.metadata.namespace)}/${String(p.metadata.name)}`)
    .sort();

/** Every bound pod by its node, read once: choosing among a thousand nodes must not list the pods per node. */
function podsByNode(kube: KubeApiEmulator): Map<string, PodFields[]> {
  const out = new Map<string, PodFields[]>();
  for (const p of kube.store.all(kube.typeOf('Pod')) as PodFields[]) {
    const node = p.spec?.nodeName;
    if (!node) continue;
    const list = out.get(node);
    if (list) list.push(p);
    else out.set(node, [p]);
  }
  return out;
}

interface RunState {
  readonly record: TimelineRecord;
  readonly done: Set<number>;
  readonly deadlines: { minute: number; instance: string }[];
}

export class Timeline {
  private readonly runs = new WeakMap<KubeApiEmulator, RunState>();
  constructor(readonly entries: readonly TimelineEntry[]) {}

  /** What this timeline did and saw in the run on `kube` (empty before the run's first minute). */
  record(kube: KubeApiEmulator): TimelineRecord {
    return this.state(kube).record;
  }

  /** The minute's injections, before the functions due then fire. */
  async inject(minute: number, env: FleetEnvironment, now: Date): Promise<void> {
    const s = this.state(env.kube);
    noteCauses(env.kube, s.record.causes);
    for (const d of s.deadlines.filter((x) => x.minute <= minute)) reclaim(env, d.instance, s.record);
    s.deadlines.splice(0, s.deadlines.length, ...s.deadlines.filter((x) => x.minute > minute));
    for (const [i, e] of this.entries.entries()) {
      if (s.done.has(i) || e.at > minute) continue;
      const injected = await apply(e.inject, { minute, at: now.toISOString() }, env, s);
      if (injected) {
        s.done.add(i);
        s.record.injected.push(injected);
      }
    }
  }

  private state(kube: KubeApiEmulator): RunState {
    let s = this.runs.get(kube);
    if (!s) {
      const record: TimelineRecord = { injected: [], causes: new Map(), outlivedNotice: [] };
      s = { record, done: new Set(), deadlines: [] };
      this.runs.set(kube, s);
      // The last state of a deleted Node or NodeClaim still carries the cause it was stamped with.
      kube.store.onDelete((t, obj) => {
        if (t.kind === 'Node' || t.kind === 'NodeClaim') noteCause(obj, t.kind, record.causes);
      });
    }
    return s;
  }
}

function noteCause(obj: KubeObject, kind: string, causes: Map<string, string>): void {
  const cause = (obj.metadata.annotations as Record<string, string> | undefined)?.[TERMINATION_CAUSE];
  const key = `${kind}/${String(obj.metadata.name)}`;
  if (cause && !causes.has(key)) causes.set(key, cause);
}

function noteCauses(kube: KubeApiEmulator, causes: Map<string, string>): void {
  for (const kind of ['Node', 'NodeClaim']) for (const o of all(kube, kind)) noteCause(o, kind, causes);
}

async function apply(
  inj: Injection,
  when: { readonly minute: number; readonly at: string },
  env: FleetEnvironment,
  s: RunState,
): Promise<Injected | undefined> {
  const base = { ...when, kind: inj.kind };
  if (inj.kind === 'capacity') {
    limitCapacity(env, inj.types, inj.left);
    return base;
  }
  if (inj.kind === 'drop-type') {
    const type = inj.type ?? leastLoadedType(env.kube, inj.pool);
    if (!type) return undefined;
    dropType(env.kube, inj.pool, type);
    return { ...base, type };
  }
  const node = inj.kind === 'spot-interruption' ? spotTarget(env.kube, inj) : candidate(env.kube, inj.cloud);
  if (!node) return undefined;
  const providerID = String(node.spec?.providerID);
  const target = { ...base, cloud: inj.cloud, node: String(node.metadata.name), providerID };
  const pods = podsOn(env.kube, target.node);
  const claim = all(env.kube, 'NodeClaim').find(
    (c) => (c as { status?: { providerID?: string } }).status?.providerID === providerID,
  );
  if (inj.kind === 'spot-interruption') interrupt(env, providerID, when.minute, s);
  else await terminateOutOfBand(env, providerID);
  return { ...target, ...(claim ? { claim: String(claim.metadata.name) } : {}), pods };
}

/** The spot node of the cloud (and pool) with the most pods: an interruption there displaces the most. */
function spotTarget(kube: KubeApiEmulator, inj: { cloud: Cloud; pool?: string }): NodeFields | undefined {
  const nodes = all(kube, 'Node').filter(
    (n) =>
      cloudOf(n) === inj.cloud &&
      n.metadata.labels?.['karpenter.sh/capacity-type'] === 'spot' &&
      (!inj.pool || n.metadata.labels['karpenter.sh/nodepool'] === inj.pool) &&
      !n.metadata.deletionTimestamp &&
      !tainted(n),
  );
  const byNode = podsByNode(kube);
  const load = new Map(nodes.map((n) => [n, workloadOn(byNode.get(String(n.metadata.name)) ?? []).length]));
  return nodes.sort(
    (a, b) =>
      (load.get(b) ?? 0) - (load.get(a) ?? 0) ||
      String(a.metadata.name).localeCompare(String(b.metadata.name)),
  )[0];
}

/** A Node of the cloud tainted disrupted by a command (its claim not being deleted: not yet draining). */
function candidate(kube: KubeApiEmulator, cloud: Cloud): NodeFields | undefined {
  const going = new Set(
    all(kube, 'NodeClaim')
      .filter((c) => c.metadata.deletionTimestamp)
      .map((c) => String((c as { status?: { nodeName?: string } }).status?.nodeName)),
  );
  return all(kube, 'Node')
    .filter((n) => cloudOf(n) === cloud && tainted(n) && !n.metadata.deletionTimestamp)
    .filter((n) => !going.has(String(n.metadata.name)))
    .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)))[0];
}

const ids = (providerID: string) => {
  const [zone = '', name = ''] = providerID.replace(/^(aws:\/\/\/|gce:\/\/[^/]+\/)/, '').split('/');
  return { zone, name };
};

function interrupt(env: FleetEnvironment, providerID: string, minute: number, s: RunState): void {
  const { zone, name } = ids(providerID);
  if (providerID.startsWith('gce://')) return env.gce.preempt(zone, name);
  // The warning goes out now (EventBridge → the interruption queue); the emulator would reclaim the instance on
  // its own wall-clock timer, so the timeline reclaims it at the end of the notice in simulated time instead.
  env.ec2.interruptSpot(name, 2 ** 31 - 1);
  s.deadlines.push({ minute: minute + SPOT_NOTICE_MS / 60_000, instance: name });
}

/** The end of the notice: EC2 takes an instance kraftsman did not drain and terminate in time. */
function reclaim(env: FleetEnvironment, instanceId: string, record: TimelineRecord): void {
  const i = env.ec2.world.instances.get(instanceId);
  if (!i || (i.state !== 'running' && i.state !== 'pending')) return;
  record.outlivedNotice.push(instanceId);
  i.state = 'shutting-down';
  env.ec2.world.finishTermination(i);
}

/** As an operator would from a console: EC2 TerminateInstances, Compute Engine instances.delete. */
async function terminateOutOfBand(env: FleetEnvironment, providerID: string): Promise<void> {
  const { zone, name } = ids(providerID);
  const res = providerID.startsWith('aws://')
    ? await fetch(env.ec2.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `Action=TerminateInstances&Version=2016-11-15&InstanceId.1=${encodeURIComponent(name)}`,
      })
    : await fetch(
        `http://127.0.0.1:${env.gce.port}/compute/v1/projects/${env.gce.world.project}/zones/${zone}/instances/${name}`,
        { method: 'DELETE' },
      );
  if (!res.ok)
    throw new Error(
      `timeline: terminating ${providerID} out of band: HTTP ${res.status} ${await res.text()}`,
    );
}

/** What a cloud short of an offering does: CreateFleet and bulkInsert refuse past what is left. */
function limitCapacity(env: FleetEnvironment, types: readonly string[], left: number): void {
  for (const type of types) {
    for (const zone of env.awsZones)
      for (const lc of ['on-demand', 'spot'] as const) env.ec2.world.setCapacity(type, zone, lc, left);
    for (const zone of env.gcpZones)
      for (const model of ['STANDARD', 'SPOT'] as const) env.gce.world.setCapacity(type, zone, model, left);
  }
}

type Pdb = KubeObject & {
  spec?: { selector?: { matchLabels?: Record<string, string> } };
  status?: { disruptionsAllowed?: number };
};

/** Pods on the node that graceful disruption may not move now: do-not-disrupt, or a PDB allowing no disruption. */
function blockedPods(pods: readonly PodFields[], pdbs: readonly Pdb[]): number {
  return pods.filter((p) => {
    const labels = (p.metadata.labels ?? {}) as Record<string, string>;
    if (
      (p.metadata.annotations as Record<string, string> | undefined)?.['karpenter.sh/do-not-disrupt'] ===
      'true'
    )
      return true;
    return pdbs.some(
      (b) =>
        b.metadata.namespace === p.metadata.namespace &&
        (b.status?.disruptionsAllowed ?? 0) === 0 &&
        Object.entries(b.spec?.selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
    );
  }).length;
}

/**
 * The instance type of the pool's node with the fewest pods, among nodes nothing blocks (drift is graceful: a
 * PDB allowing no disruption or a do-not-disrupt pod holds it back, docs/mechanisms/candidate-budget.md).
 */
function leastLoadedType(kube: KubeApiEmulator, pool: string): string | undefined {
  const pdbs = kube.store.all(kube.typeOf('PodDisruptionBudget')) as Pdb[];
  const byNode = podsByNode(kube);
  const on = (n: NodeFields) => byNode.get(String(n.metadata.name)) ?? [];
  const nodes = all(kube, 'Node').filter(
    (n) =>
      n.metadata.labels?.['karpenter.sh/nodepool'] === pool &&
      !n.metadata.deletionTimestamp &&
      blockedPods(on(n), pdbs) === 0,
  );
  const loads = new Map(nodes.map((n) => [n, workloadOn(on(n)).length]));
  const load = (n: NodeFields) => loads.get(n) ?? 0;
  const [node] = nodes.sort(
    (a, b) => load(a) - load(b) || String(a.metadata.name).localeCompare(String(b.metadata.name)),
  );
  return node?.metadata.labels?.['node.kubernetes.io/instance-type'];
}

/** `kubectl edit nodepool`: the type leaves the pool's instance-type requirement (or one is added without it). */
function dropType(kube: KubeApiEmulator, pool: string, type: string): void {
  const t = kube.typeOf('NodePool');
  const p = kube.store.get(t, undefined, pool) as KubeObject & {
    spec: { template: { spec: { requirements: { key: string; operator: string; values?: string[] }[] } } };
  };
  const reqs = p.spec.template.spec.requirements;
  const it = reqs.find((r) => r.key === 'node.kubernetes.io/instance-type' && r.operator === 'In');
  const requirements = it
    ? reqs.map((r) => (r === it ? { ...r, values: (r.values ?? []).filter((v) => v !== type) } : r))
    : [...reqs, { key: 'node.kubernetes.io/instance-type', operator: 'NotIn', values: [type] }];
  kube.store.patch(
    t,
    undefined,
    pool,
    'application/merge-patch+json',
    { spec: { template: { spec: { requirements } } } },
    undefined,
  );
}
