// Peak memory of one pass (docs/benchmarks.md, bench:pass): run in a fresh process so the figure is this pass's
// alone — the fleet is generated, one whole census simulated in the given mode, and the process's peak
// resident set printed as JSON. Usage: tsx test/bench/pass-memory.ts <nodes> <pending> <upstream|kraftsman>
import { passOptions } from '../../shared/disruption/types.ts';
import { census } from './pass-walk.ts';
import { rampSnapshot } from './ramp-snapshot.ts';

const [nodes, pending, mode] = process.argv.slice(2);
if (!nodes || !pending || (mode !== 'upstream' && mode !== 'kraftsman'))
  throw new Error('usage: pass-memory.ts <nodes> <pending> <upstream|kraftsman>');
const s = rampSnapshot(Number(nodes), Number(pending));
const before = process.resourceUsage().maxRSS;
const c = census(s, passOptions({ upstream: mode === 'upstream' }));
process.stdout.write(
  `${JSON.stringify({ mode, censusMs: c.totalMs, reached: c.reached, truncated: c.truncated, peakRssMb: process.resourceUsage().maxRSS / 1024, fleetRssMb: before / 1024 })}\n`,
);
