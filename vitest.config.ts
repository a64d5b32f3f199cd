// Test runner configuration: every suite under test/, one file at a time per worker.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: a 1,000-case property takes ~15 s alone but over 60 s on a loaded 2-core machine. The timeout
    // catches hangs; speed is measured by the benchmarks, never asserted here.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
