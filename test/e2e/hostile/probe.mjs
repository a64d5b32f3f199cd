// Preloaded into the CLI child by the hostile-input suite: at exit, writes the process's peak memory and CPU
// time to the file named by KRAFTSMAN_PROBE_FILE, so the suite measures the real process, not a guess.
import { writeFileSync } from 'node:fs';

const file = process.env.KRAFTSMAN_PROBE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }),
    );
  });
}
