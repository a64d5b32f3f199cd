// The disruption commands of a run, read from the state table (what admit and orchestrate wrote): open ones
// are "in flight" each minute; finished ones go into the summary with their decision, candidates,
// replacements, savings and outcome, and whether a replacement landed on the other cloud.
import type { KubeApiEmulator } from '../kube-api/index.ts';
import type { CommandStatus } from '../../shared/ports/state-store/command-states.ts';
import { OPEN_COMMAND_STATUSES } from '../../shared/ports/state-store/command-states.ts';
import type { StateStore } from '../../shared/ports/state-store/index.ts';
import type { FleetCommand } from './summary.ts';

type ClaimFields = { metadata: { name?: unknown }; spec?: { nodeClassRef?: { kind?: string } } };

export class CommandLedger {
  /** The cloud of every NodeClaim seen during the run (a candidate's claim is gone once it completes). */
  private readonly clouds = new Map<string, 'aws' | 'gcp'>();

  constructor(
    private readonly store: Pick<StateStore, 'listCommandsByStatus'>,
    private readonly cluster: string,
  ) {}

  noteClaims(kube: KubeApiEmulator): void {
    for (const c of kube.store.all(kube.typeOf('NodeClaim')) as ClaimFields[]) {
      const kind = c.spec?.nodeClassRef?.kind;
      if (kind) this.clouds.set(String(c.metadata.name), kind === 'GCENodeClass' ? 'gcp' : 'aws');
    }
  }

  async inFlight(): Promise<number> {
    const open = await Promise.all(
      OPEN_COMMAND_STATUSES.map((s) => this.store.listCommandsByStatus(this.cluster, s)),
    );
    return open.reduce((n, l) => n + l.length, 0);
  }

  /**
   * Where each finished command ended, in simulated minutes since `startMs` (its record's last update), for the
   * report's markers on the cost chart; a command of the same minute shares its marker.
   */
  async markers(startMs: number): Promise<{ readonly minute: number; readonly label: string }[]> {
    const out: { minute: number; label: string }[] = [];
    for (const status of ['completed', 'rolled-back', 'failed'] as const)
      for (const c of await this.store.listCommandsByStatus(this.cluster, status))
        out.push({
          minute: Math.max(0, Math.round((c.updatedAt.getTime() - startMs) / 60_000)),
          label: `${c.decision} ${c.candidates.join(', ')} (${status})`,
        });
    return out.sort((a, b) => a.minute - b.minute || a.label.localeCompare(b.label));
  }

  async finished(): Promise<FleetCommand[]> {
    const done: [CommandStatus, FleetCommand['outcome']][] = [
      ['completed', 'completed'],
      ['rolled-back', 'rolled-back'],
      ['failed', 'failed'],
    ];
    const out: FleetCommand[] = [];
    for (const [status, outcome] of done)
      for (const c of await this.store.listCommandsByStatus(this.cluster, status)) {
        const from = new Set(c.candidates.map((n) => this.clouds.get(n)));
        out.push({
          id: c.id,
          method: c.method,
          decision: c.decision,
          candidates: [...c.candidates],
          replacements: [...c.replacements],
          savingsPerHour: Math.round((c.savingsPerHour ?? 0) * 100) / 100,
          outcome,
          crossCloud: c.replacements.some((r) => {
            const cloud = this.clouds.get(r);
            return cloud !== undefined && !from.has(cloud);
          }),
        });
      }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }
}
