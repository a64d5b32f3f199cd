// serverless.yml's custom.esbuild as esbuild options (the one place they are written), plugins included: what
// `osls package` bundles each function with, for bench:bundle and test/infra/bundle-contents.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { parse } from 'yaml';
import { ROOT } from './derive.ts';

export async function serverlessEsbuildOptions(): Promise<BuildOptions> {
  const doc = parse(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')) as {
    custom: { esbuild: Record<string, unknown> };
  };
  const e = doc.custom.esbuild;
  const plugins = typeof e.plugins === 'string' ? await import(join(ROOT, e.plugins)) : undefined;
  return {
    plugins: (plugins as { default?: Plugin[] } | undefined)?.default ?? [],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: String(e.target),
    minify: Boolean(e.minify),
    keepNames: Boolean(e.keepNames),
    sourcemap: Boolean(e.sourcemap),
    mainFields: e.mainFields as string[],
    splitting: Boolean(e.splitting),
    ...(typeof e.chunkNames === 'string' ? { chunkNames: e.chunkNames } : {}),
    banner: e.banner as Record<string, string>,
    outExtension: { '.js': String(e.outputFileExtension) },
    metafile: true,
    // Metafile paths are relative to it.
    absWorkingDir: ROOT,
    logLevel: 'warning',
  };
}

/** The SDK packages a bundle's inputs come from (AWS clients, Google Cloud, the Kubernetes client). */
export const SDK =
  /node_modules\/((?:@aws-sdk\/client-[a-z0-9-]+)|(?:@google-cloud\/[a-z-]+)|@kubernetes\/client-node)\//;

type Metafile = {
  outputs: Record<
    string,
    {
      imports: { path: string; kind: string; external?: boolean }[];
      inputs: Record<string, { bytesInOutput: number }>;
    }
  >;
};

/** The outputs a handler's import loads (it and, transitively, its static imports) and those it loads lazily. */
export function splitOutputs(meta: Metafile, entry: string): { eager: string[]; lazy: string[] } {
  const eager = new Set<string>();
  const visit = (o: string) => {
    if (eager.has(o) || !meta.outputs[o]) return;
    eager.add(o);
    for (const i of meta.outputs[o].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  const all = Object.keys(meta.outputs).filter((o) => o.endsWith('.mjs'));
  return { eager: [...eager], lazy: all.filter((o) => !eager.has(o)) };
}

/** The SDKs whose code is in `outputs`. */
export function sdksIn(meta: Metafile, outputs: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const o of outputs)
    for (const [input, use] of Object.entries(meta.outputs[o]?.inputs ?? {})) {
      const m = SDK.exec(input);
      if (m?.[1] && use.bytesInOutput > 0) found.add(m[1]);
    }
  return found;
}
