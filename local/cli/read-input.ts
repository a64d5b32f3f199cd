// Reads input files (or stdin) within bounds — size before reading, YAML nodes after alias expansion, nesting
// depth, duplicate keys (docs/input-bounds.md) — then recognises and validates the objects (shared/state/recognize.ts).
import { catalogSchema, type InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import { InvalidDocumentError } from '../../shared/state/errors.ts';
import { recognize, type Recognized, type SourceDocument } from '../../shared/state/recognize.ts';
import { formatZodIssues } from '../../shared/model/zod-issues.ts';
import { InputError } from './errors.ts';
import { expandInputs } from './input-files.ts';
import { duplicateKeyMessage, MAX_YAML_BYTES } from './input-limits.ts';
import { parseJsonValues } from './json-values.ts';
import { readSource } from './read-source.ts';
import { parseYamlDocuments } from './yaml-documents.ts';

/** JSON is recognised by its first character: a file that starts with `{` or `[` is read as JSON only. */
function isJson(text: string): boolean {
  const m = /\S/.exec(text.length > 4096 ? text.slice(0, 4096) : text);
  return m !== null && (m[0] === '{' || m[0] === '[');
}

/** Parses one file's text into documents: JSON as JSON (one or more values), anything else as a YAML stream. */
export function parseText(text: string, source: string): SourceDocument[] {
  let docs: { value: unknown; duplicate: Parameters<typeof duplicateKeyMessage>[2] | undefined }[];
  if (isJson(text)) {
    // a top-level array holds the documents themselves
    docs = parseJsonValues(text, source).flatMap((d) =>
      Array.isArray(d.value) && !d.duplicate
        ? d.value.map((value) => ({ value, duplicate: undefined }))
        : [d],
    );
  } else {
    if (Buffer.byteLength(text) > MAX_YAML_BYTES)
      throw new InputError(
        `${source}: YAML larger than ${MAX_YAML_BYTES / (1024 * 1024)} MiB (the YAML size limit); give larger snapshots as JSON (kubectl get -o json)`,
      );
    docs = parseYamlDocuments(text, source);
  }
  for (const d of docs)
    if (d.duplicate) throw new InputError(duplicateKeyMessage(source, d.value, d.duplicate));
  return docs.map((d) => ({ source, value: d.value }));
}

/** The objects of every input; `recursive` (-R) also reads a directory's subdirectories. */
export async function readObjects(
  files: readonly string[],
  stdin: NodeJS.ReadableStream,
  recursive = false,
): Promise<Recognized> {
  const docs: SourceDocument[] = [];
  for (const file of await expandInputs(files, recursive)) {
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
