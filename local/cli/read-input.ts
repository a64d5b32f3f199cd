// Reads input files (or stdin) as YAML/JSON with bounds — size, line length, alias expansion, nesting depth —
// so a hostile file fails fast, then recognises and validates the objects (shared/state/recognize.ts).
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { catalogSchema, type InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import { InvalidDocumentError } from '../../shared/state/errors.ts';
import { recognize, type Recognized, type SourceDocument } from '../../shared/state/recognize.ts';
import { formatZodIssues } from '../../shared/model/zod-issues.ts';
import { InputError } from './errors.ts';

const MAX_BYTES = 256 * 1024 * 1024;
const MAX_LINE = 1024 * 1024;
const MAX_DEPTH = 64;
const MAX_ALIASES = 1000;

async function readSource(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += b.length;
      if (size > MAX_BYTES) throw new InputError(`standard input: larger than ${MAX_BYTES} bytes`);
      chunks.push(b);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    const buf = await readFile(file);
    if (buf.length > MAX_BYTES) throw new InputError(`${file}: larger than ${MAX_BYTES} bytes`);
    return buf.toString('utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as { code?: string }).code;
    throw new InputError(`${file}: cannot read file${code ? ` (${code})` : ''}`, { cause: e });
  }
}

function checkDepth(value: unknown, source: string, depth = 0): void {
  if (depth > MAX_DEPTH) throw new InputError(`${source}: nesting deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) for (const v of value) checkDepth(v, source, depth + 1);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) checkDepth(v, source, depth + 1);
}

/** Parses one file's text into documents (JSON fast path; YAML with alias limits otherwise). */
export function parseText(text: string, source: string): SourceDocument[] {
  let start = 0;
  for (let i = text.indexOf('\n'); ; i = text.indexOf('\n', start)) {
    const end = i === -1 ? text.length : i;
    if (end - start > MAX_LINE) throw new InputError(`${source}: line longer than ${MAX_LINE} characters`);
    if (i === -1) break;
    start = i + 1;
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(text);
      checkDepth(value, source);
      return (Array.isArray(value) ? value : [value]).map((v) => ({ source, value: v }));
    } catch (e) {
      if (e instanceof InputError) throw e;
      // not JSON after all (YAML flow style): fall through to the YAML parser
    }
  }
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: false });
  const out: SourceDocument[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const err = doc.errors[0];
    if (err) {
      const line = err.linePos?.[0]?.line;
      throw new InputError(
        `${source}${line ? `:${line}` : ''}: YAML syntax error: ${err.message.split('\n')[0]}`,
      );
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (e) {
      throw new InputError(`${source}: ${(e as Error).message}`, { cause: e });
    }
    checkDepth(value, source);
    out.push({ source, value });
  }
  return out;
}

export async function readObjects(
  files: readonly string[],
  stdin: NodeJS.ReadableStream,
): Promise<Recognized> {
  const docs: SourceDocument[] = [];
  for (const file of files) {
    const source = file === '-' ? 'standard input' : file;
    docs.push(...parseText(await readSource(file, stdin), source));
  }
  try {
    const r = recognize(docs);
    if (r.count === 0 && r.warnings.length === 0)
      throw new InputError(`empty input: no objects in ${files.join(', ')}`);
    return r;
  } catch (e) {
    if (e instanceof InvalidDocumentError) throw new InputError(e.message, { cause: e });
    throw e;
  }
}

export async function readCatalog(file: string, stdin: NodeJS.ReadableStream): Promise<InstanceTypeCatalog> {
  const docs = parseText(await readSource(file, stdin), file);
  const values = docs.map((d) => d.value).filter((v) => v !== null && v !== undefined);
  if (values.length !== 1)
    throw new InputError(`${file}: expected one InstanceTypeCatalog document, found ${values.length}`);
  const parsed = catalogSchema.safeParse(values[0]);
  if (!parsed.success) throw new InputError(`${file}: InstanceTypeCatalog: ${formatZodIssues(parsed.error)}`);
  return parsed.data;
}
