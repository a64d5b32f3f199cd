// The interruptions of a run, as the functions recorded them: lifecycle stamps the cloud's cause
// (`kraftsman.dev/termination-cause`) on the NodeClaim and Node it takes down, and the fleet reads those
// stamps every minute and from the last state of every deleted Node and claim — never from whatever
// injected the interruption. `replaced`: provision created a claim in the node's NodePool at or after the
// minute the cause was first seen (the node's pods got capacity again).
import type { KubeApiEmulator, KubeObject } from '../kube-api/index.ts';
import { NODEPOOL, TERMINATION_CAUSE, TERMINATION_CAUSES } from '../../shared/model/labels.ts';
import type { FleetCommand, FleetSummary } from './summary.ts';

type Fields = KubeObject & {
  metadata: { name?: unknown; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { providerID?: string };
  status?: { providerID?: string; nodeName?: string };
};

/** A rebalance recommendation only informs (nothing is taken down), so it is no interruption. */
const INTERRUPTING: ReadonlySet<string> = new Set(
  TERMINATION_CAUSES.filter((c) => c !== 'rebalance-recommendation'),
);

interface Seen {
  readonly node: string;
  readonly cloud: 'aws' | 'gcp';
  readonly cause: string;
  readonly pool: string;
  readonly minute: number;
}

export class InterruptionRecorder {
  private readonly seen = new Map<string, Seen>();
  /** Every NodeClaim seen: its NodePool and the first minute it was there. */
  private readonly claims = new Map<string, { pool: string; minute: number }>();
  private minute = 0;

  constructor(private readonly kube: KubeApiEmulator) {
    kube.store.onDelete((t, obj) => {
      if (t.kind === 'Node' || t.kind === 'NodeClaim') this.note(obj as Fields);
    });
  }

  /** Called every simulated minute, after the functions ran. */
  sample(minute: number): void {
    this.minute = minute;
    for (const c of this.kube.store.all(this.kube.typeOf('NodeClaim')) as Fields[]) {
      const name = String(c.metadata.name);
      if (!this.claims.has(name))
        this.claims.set(name, { pool: c.metadata.labels?.[NODEPOOL] ?? '', minute });
      this.note(c);
    }
    for (const n of this.kube.store.all(this.kube.typeOf('Node')) as Fields[]) this.note(n);
  }

  /** Interruptions, less the nodes kraftsman took down itself (a command's candidates: their instance's
   *  state change comes back through the queue as `instance-terminated`). */
  interruptions(commands: readonly FleetCommand[]): FleetSummary['interruptions'] {
    const candidates = new Set(commands.flatMap((c) => c.candidates));
    return [...this.seen.values()]
      .filter((s) => !candidates.has(s.node))
      .sort((a, b) => a.minute - b.minute || a.node.localeCompare(b.node))
      .map((s) => ({
        node: s.node,
        cloud: s.cloud,
        cause: s.cause,
        replaced: [...this.claims.values()].some((c) => c.pool === s.pool && c.minute >= s.minute),
      }));
  }

  private note(o: Fields): void {
    const cause = o.metadata.annotations?.[TERMINATION_CAUSE];
    if (!cause || !INTERRUPTING.has(cause)) return;
    const node =
      o.kind === 'NodeClaim' ? (o.status?.nodeName ?? String(o.metadata.name)) : String(o.metadata.name);
    const id = o.spec?.providerID ?? o.status?.providerID ?? '';
    if (this.seen.has(node) || !/^(aws|gce):\/\//.test(id)) return;
    const cloud = id.startsWith('aws://') ? 'aws' : 'gcp';
    this.seen.set(node, {
      node,
      cloud,
      cause,
      pool: o.metadata.labels?.[NODEPOOL] ?? '',
      minute: this.minute,
    });
  }
}
