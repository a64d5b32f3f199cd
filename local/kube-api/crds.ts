// Loads CustomResourceDefinitions from YAML: the project's own (infra/crds) plus Volcano's PodGroup and the
// Workload API (crds/), which the emulator serves so that gangs can be stored and read.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { CrdObject } from './resources.ts';

export const PROJECT_CRD_DIR = fileURLToPath(new URL('../../infra/crds/', import.meta.url));
export const EMULATOR_CRD_DIR = fileURLToPath(new URL('./crds/', import.meta.url));

export function loadCrdFile(path: string): CrdObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`);
      return doc.toJS() as { kind?: string } | null;
    })
    .filter((o): o is CrdObject & { kind: string } => o?.kind === 'CustomResourceDefinition');
}

export function loadCrdDir(dir: string): CrdObject[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => loadCrdFile(`${dir}${f}`));
}

/** Every CRD the emulator serves by default. */
export const defaultCrds = (): CrdObject[] => [
  ...loadCrdDir(PROJECT_CRD_DIR),
  ...loadCrdDir(EMULATOR_CRD_DIR),
];
