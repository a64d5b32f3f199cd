// The report's answer to "was it healthy?", at the top of each run (docs/fleet.md "The report"): a verdict, every
// invariant with its count (the lost pods' owners named), the pods left unprovisionable with their reasons, and
// the commands still in flight when the run ended.
import { brokenInvariants } from '../summary.ts';
import type { FleetRun } from './model.ts';
import { esc } from './tables.ts';

function rows(cells: readonly (readonly string[])[]): string {
  return cells.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('');
}

export function verdictHtml(run: FleetRun): string {
  const i = run.summary.invariants;
  const d = run.details;
  const broken = brokenInvariants(run);
  const verdict = broken.length
    ? `<p class="verdict bad" data-verdict="unhealthy"><strong>Unhealthy:</strong> ${broken.length} invariant(s) broken — ${esc(broken.join('; '))}</p>`
    : `<p class="verdict good" data-verdict="healthy"><strong>Healthy:</strong> every invariant held.</p>`;
  const lost = i.lostPods ? `${i.lostPods} (of ${d.lostOwners.join(', ')})` : '0';
  const invariants: [string, string][] = [
    ['lost pods', lost],
    ['orphan instances', String(i.orphanInstances)],
    ['nodes left tainted disrupted', String(i.strandedTaints)],
    ['NodePool-minutes over budget', String(i.budgetOverspends)],
    ['Nodes without an instance', String(d.nodesWithoutInstance.length)],
    ['nodes double-booked', String(d.doubleBooked.length)],
  ];
  // one row: each invariant a column, its count under it
  const table = `<table class="invariants"><tr>${invariants.map(([k]) => `<th>${esc(k)}</th>`).join('')}</tr>${rows([invariants.map(([, v]) => v)])}</table>`;
  // pods that share a reason share a row: the reason, how many, the first few named
  const byReason = new Map<string, string[]>();
  for (const p of d.unprovisionablePods ?? [])
    byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), p.pod]);
  const grouped = [...byReason].map(([reason, pods]) => [
    String(pods.length),
    pods.slice(0, 3).join(', ') + (pods.length > 3 ? ', …' : ''),
    reason,
  ]);
  const listed = d.unprovisionablePods?.length ?? 0;
  const unprovisionable = grouped.length
    ? `<details class="unprovisionable"><summary>Unprovisionable at the end: ${run.summary.pods.pendingEnd} pending, ${listed} with a reason (${grouped.length} distinct)</summary><table><tr><th>pods</th><th>which</th><th>why no node could be launched</th></tr>${rows(grouped)}</table></details>`
    : `<p>No pod ended the run unprovisionable (${run.summary.pods.pendingEnd} pending).</p>`;
  const inFlight = d.commandsInFlightAtEnd ?? run.samples[run.samples.length - 1]?.commandsInFlight ?? 0;
  return `<div class="health">${verdict}${table}${unprovisionable}<p class="in-flight">Commands in flight at the end: ${inFlight}</p></div>`;
}
