// bench:bundle — each function in serverless.yml bundled with serverless.yml's own esbuild settings: the bytes
// its cold start loads (the handler and the chunks it imports statically), the bytes it loads only at first use
// (dynamically imported chunks, e.g. the Google client behind functions/compose/lazy-gce.ts), the SDKs in each,
// and the cold import time of the handler in a fresh Node process (median of runs; wall and CPU time, the latter
// the figure a loaded machine distorts least).
// A function must carry only the SDKs its code uses (test/infra/bundle-contents.test.ts holds them to its roles).
// Last, the CPU time of building the Compute Engine clients, bundled with and without serverless.yml's plugins.
// Usage: npm run bench:bundle -- [--runs 3] [--only provision,launch-aws] [--json FILE]
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { ROOT } from '../infra/support/derive.ts';
import { serviceFunctions } from '../infra/support/package.ts';
import {
  sdksIn,
  serverlessEsbuildOptions as esbuildOptions,
  splitOutputs,
} from '../infra/support/esbuild-options.ts';

const run = promisify(execFile);
const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const runs = Math.max(1, Number(flag('runs') ?? 3));
if (!Number.isInteger(runs)) throw new Error(`--runs must be a whole number, got "${flag('runs')}"`);
const only = flag('only')?.split(',');
const jsonPath = flag('json');
interface Row {
  readonly fn: string;
  /** What the cold start reads: the handler and every chunk it imports statically. */
  readonly bytes: number;
  /** What it reads only when a dynamic import runs (at the first call of a lazy client). */
  readonly lazyBytes: number;
  readonly sdks: readonly string[];
  /** SDKs found only in the lazily loaded chunks. */
  readonly lazySdks: readonly string[];
  readonly importMs: number;
  readonly importCpuMs: number;
}

/** Wall and CPU time of importing the bundle in a fresh process: CPU time is what a loaded machine distorts least. */
async function coldImport(file: string): Promise<{ wallMs: number; cpuMs: number }> {
  const probe = `const c=process.cpuUsage();const t=performance.now();await import(${JSON.stringify(file)});const u=process.cpuUsage(c);console.log(JSON.stringify([performance.now()-t,(u.user+u.system)/1000]))`;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe], {
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    const [w, c] = JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as [number, number];
    wall.push(w);
    cpu.push(c);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

async function measure(fn: string, handlerFile: string, out: string): Promise<Row> {
  const dir = join(out, fn);
  const result = await build({
    ...(await esbuildOptions()),
    entryPoints: { handler: join(ROOT, handlerFile) },
    outdir: dir,
  });
  const meta = result.metafile ?? { inputs: {}, outputs: {} };
  // Every dynamically imported module is an entry point of its own under splitting: the handler is the named one.
  // Every dynamically imported module is an entry point of its own under splitting: the handler is the named one.
  const entry = Object.keys(meta.outputs).find((o) => o.endsWith(`${fn}/handler.mjs`)) ?? '';
  const { eager, lazy } = splitOutputs(meta, entry);
  const sdks = sdksIn(meta, eager);
  const lazySdks = [...sdksIn(meta, lazy)].filter((x) => !sdks.has(x));
  const size = (outputs: string[]) => outputs.reduce((n, o) => n + statSync(join(ROOT, o)).size, 0);
  const file = join(dir, 'handler.mjs');
  const { wallMs, cpuMs } = await coldImport(file);
  return {
    fn,
    bytes: size(eager),
    lazyBytes: size(lazy),
    sdks: [...sdks].sort(),
    lazySdks: lazySdks.sort(),
    importMs: wallMs,
    importCpuMs: cpuMs,
  };
}

/** CPU time of constructing the adapter's Compute Engine clients (where the REST transport loads its protos),
 *  bundled with and without serverless.yml's plugins: what a GCP function's first invocation pays. */
async function computeClientsCpuMs(out: string, plugins: boolean): Promise<number> {
  const entry = join(out, 'compute-clients-entry.ts');
  writeFileSync(
    entry,
    `import { OAuth2Client } from 'google-auth-library';
import { createComputeClients } from ${JSON.stringify(join(ROOT, 'shared/adapters/gcp-compute/clients.ts'))};
const c = process.cpuUsage();
createComputeClients(new OAuth2Client());
const u = process.cpuUsage(c);
console.log((u.user + u.system) / 1000);
`,
  );
  const options = await esbuildOptions();
  const file = join(out, `compute-clients-${plugins ? 'pruned' : 'full'}.mjs`);
  await build({
    ...options,
    ...(plugins ? {} : { plugins: [] }),
    splitting: false,
    entryPoints: [entry],
    outfile: file,
  });
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(process.execPath, [file], { env: { PATH: process.env.PATH } });
    samples.push(Number(stdout.trim().split('\n').at(-1)));
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
}

/** The machine's load when the figures were taken: wall time on a loaded machine is mostly other processes. */
const uptime = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

async function main(): Promise<void> {
  const out = join(ROOT, '.tmp', 'bench-bundle');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const rows: Row[] = [];
  for (const f of serviceFunctions()) {
    if (only && !only.includes(f.name)) continue;
    if (!existsSync(join(ROOT, f.handlerFile))) {
      console.log(`${f.name.padEnd(12)} (no handler: ${f.handlerFile} is missing)`);
      continue;
    }
    const row = await measure(f.name, f.handlerFile, out);
    rows.push(row);
    console.log(
      `${row.fn.padEnd(12)} ${(row.bytes / 1e6).toFixed(2).padStart(6)} MB (+${(row.lazyBytes / 1e6).toFixed(2)} MB lazy)  import ${row.importMs.toFixed(0).padStart(5)} ms (cpu ${row.importCpuMs.toFixed(0).padStart(5)} ms)  ${row.sdks.join(' ')}${row.lazySdks.length ? `  lazy: ${row.lazySdks.join(' ')}` : ''}`,
    );
  }
  console.log(
    `node ${process.version}, median of ${runs} cold imports (wall, and the process's CPU time), esbuild settings from serverless.yml; ${uptime()}`,
  );
  const [full, pruned] = [await computeClientsCpuMs(out, false), await computeClientsCpuMs(out, true)];
  console.log(
    `Compute Engine clients, first construction: ${full.toFixed(0)} ms CPU with the whole protos.json, ${pruned.toFixed(0)} ms with serverless.yml's plugins`,
  );
  if (jsonPath)
    writeFileSync(jsonPath, JSON.stringify({ rows, computeClientsCpuMs: { full, pruned } }, null, 2));
}

await main();
