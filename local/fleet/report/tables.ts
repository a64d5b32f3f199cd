// The report's tables: every command (decision, candidates, replacements, savings), skip reasons, census.
import type { FleetRun } from './model.ts';

export const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function table(caption: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  const body = rows.length
    ? rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')
    : `<tr><td colspan="${head.length}">none</td></tr>`;
  return `<h3>${esc(caption)}</h3><table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${body}</table>`;
}

export function tablesOf(run: FleetRun): string {
  const commands = run.summary.commands.map((c) => [
    c.id,
    c.method,
    c.decision,
    c.candidates.join(', '),
    c.replacements.join(', '),
    c.savingsPerHour.toFixed(2),
    c.outcome,
    c.crossCloud ? 'yes' : 'no',
  ]);
  const skips = Object.entries(run.skipReasons)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => [reason, String(n)]);
  const verdicts = [...new Set(run.census.flatMap((r) => Object.keys(r.counts)))].sort();
  const census = run.census.map((r) => [
    r.pool,
    String(r.candidates),
    ...verdicts.map((v) => String(r.counts[v] ?? 0)),
    r.at,
  ]);
  return [
    table(
      `Commands (${commands.length})`,
      ['id', 'method', 'decision', 'candidates', 'replacements', 'savings $/h', 'outcome', 'cross-cloud'],
      commands,
    ),
    table('Skip reasons', ['reason', 'count'], skips),
    table(`Census (${census.length} NodePools)`, ['NodePool', 'candidates', ...verdicts, 'at'], census),
  ].join('');
}
