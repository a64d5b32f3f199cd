// The local fleet's ids, derived from the run's seed: the functions' nonces (claim names, command ids, lease
// owners) and the Kubernetes emulator's UIDs and generated names are the same on every run of a seed.
import { createRng } from '../../test/fixtures/fleet/rng.ts';
import { uid } from '../../test/fixtures/fleet/ids.ts';

/** FNV-1a of `text`: a 32-bit seed per stream, so each stream of ids is independent of the others' use. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** UUIDs (version-4 shaped) from the seed, one stream per `name`. */
export function seededIds(seed: number, name: string): () => string {
  const rng = createRng(hash32(`${seed}/${name}`));
  return () => uid(rng);
}
