// One cloud per gang (docs/mechanisms/gangs.md#mixed-shapes): a gang launches as one unit through one cloud's
// launcher, so its members must not be split across clouds. When a placement lands members on more than one
// cloud, the scheduler places the gang again confined to each of those clouds in turn, most members first, and
// refuses it whole when none holds all of it.
import type { Cloud } from '../model/labels.ts';

/** The clouds a gang's placement used, by how many members landed on each (most first, then by name). */
export function cloudsByMembers(clouds: readonly (Cloud | undefined)[]): Cloud[] {
  const counts = new Map<Cloud, number>();
  for (const c of clouds) if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
}

/** Why a gang was refused: it needs more than one cloud and fits on none alone. */
export function splitGangError(gang: string, clouds: readonly Cloud[], why: readonly string[]): string {
  const detail = why.length ? ` (${why.join('; ')})` : '';
  return `gang ${gang} needs NodePools on more than one cloud (${clouds.join(', ')}) and cannot be placed all or nothing on any one of them${detail}`;
}
