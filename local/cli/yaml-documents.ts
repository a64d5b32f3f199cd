// Reads a YAML stream within bounds: before any alias is expanded, one walk of the syntax tree counts the
// nodes the file would expand to (aliases followed, across all its documents), measures nesting depth and
// finds duplicate keys, so a billion-laughs file fails in milliseconds (docs/input-bounds.md).
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { InputError } from './errors.ts';
import { MAX_DEPTH, MAX_YAML_NODES, type DuplicateKey } from './input-limits.ts';

type AnyNode = Node | null | undefined;

interface Walk {
  readonly source: string;
  readonly lineOf: (offset: number) => string;
  readonly anchors: Map<string, Node>;
  readonly size: Map<Node, { nodes: number; depth: number }>;
  readonly inProgress: Set<Node>;
  readonly path: (string | number)[];
  duplicate: DuplicateKey | undefined;
}

function fail(w: Walk, node: AnyNode, what: string): never {
  const offset = node?.range?.[0];
  throw new InputError(`${w.source}${offset === undefined ? '' : `:${w.lineOf(offset)}`}: ${what}`);
}

function scalarKey(w: Walk, key: unknown): string | undefined {
  const k = isAlias(key) ? w.anchors.get(key.source) : key;
  return isScalar(k) ? String(k.value) : undefined;
}

/** Expanded size and depth of a node, walking each real node once (aliases reuse their anchor's figures). */
function measure(w: Walk, node: AnyNode, depth: number): { nodes: number; depth: number } {
  if (!node) return { nodes: 1, depth: 0 };
  if (depth > MAX_DEPTH) fail(w, node, `nesting deeper than ${MAX_DEPTH} levels`);
  if (isAlias(node)) {
    const target = w.anchors.get(node.source);
    if (!target) fail(w, node, `alias *${node.source} has no anchor before it`);
    if (w.inProgress.has(target)) fail(w, node, `alias *${node.source} refers to a node that contains it`);
    const m = w.size.get(target) ?? { nodes: 1, depth: 0 };
    if (depth + m.depth > MAX_DEPTH)
      fail(w, node, `nesting deeper than ${MAX_DEPTH} levels once aliases are expanded`);
    return m;
  }
  if (node.anchor) w.anchors.set(node.anchor, node);
  let nodes = 1;
  let deepest = 0;
  const add = (child: AnyNode, segment: string | number): void => {
    w.path.push(segment);
    const m = measure(w, child, depth + 1);
    w.path.pop();
    nodes += m.nodes;
    deepest = Math.max(deepest, m.depth + 1);
    if (nodes > MAX_YAML_NODES)
      fail(
        w,
        node,
        `expands to more than ${MAX_YAML_NODES} nodes once aliases are followed (the YAML node limit)`,
      );
  };
  w.inProgress.add(node);
  if (isMap(node)) {
    const keys = new Set<string>();
    for (const pair of node.items) {
      const key = scalarKey(w, pair.key);
      if (key !== undefined && keys.has(key) && !w.duplicate)
        w.duplicate = { path: [...w.path, key], where: w.lineOf((pair.key as Node).range?.[0] ?? 0) };
      if (key !== undefined) keys.add(key);
      add(pair.key as AnyNode, key ?? '(key)');
      add(pair.value as AnyNode, key ?? '(key)');
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      // a flow sequence may hold `key: value` pairs (each becomes a one-entry mapping)
      if (isPair(item)) {
        add(item.key as AnyNode, i);
        add(item.value as AnyNode, i);
      } else add(item as AnyNode, i);
    });
  }
  w.inProgress.delete(node);
  const m = { nodes, depth: deepest };
  if (node.anchor) w.size.set(node, m);
  return m;
}

export interface YamlDocument {
  readonly value: unknown;
  readonly duplicate: DuplicateKey | undefined;
}

function lineFinder(text: string): (offset: number) => string {
  return (offset) => {
    let line = 1;
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      start = i + 1;
    }
    return `${line}:${offset - start + 1}`;
  };
}

/**
 * Rejects a run of more than MAX_DEPTH openings (`[`, `{`, `- `) with nothing else between them before the
 * parser sees it: the parser recurses once per level and takes seconds to fail on a file of 100,000 `[`.
 */
function checkOpeningRuns(text: string, source: string, lineOf: (offset: number) => string): void {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c === 0x5b || c === 0x7b || (c === 0x2d && (next === 0x20 || next === 0x09))) run++;
    else if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) run = 0;
    if (run > MAX_DEPTH)
      throw new InputError(`${source}:${lineOf(i)}: nesting deeper than ${MAX_DEPTH} levels`);
  }
}

function parseStream(text: string, source: string): Document.Parsed[] {
  try {
    return parseAllDocuments(text, { uniqueKeys: false, prettyErrors: true }) as Document.Parsed[];
  } catch (e) {
    // the parser recurses per nesting level: a file nested thousands deep overflows its stack
    if (e instanceof RangeError) throw new InputError(`${source}: nesting deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
}

/** The documents of a YAML stream as plain values, each with the first duplicate key found in it. */
export function parseYamlDocuments(text: string, source: string): YamlDocument[] {
  const lineOf = lineFinder(text);
  checkOpeningRuns(text, source, lineOf);
  const docs = parseStream(text, source);
  let total = 0;
  const out: YamlDocument[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const err = doc.errors[0];
    if (err) {
      const line = err.linePos?.[0];
      if (err.message.includes('Maximum call stack size exceeded'))
        throw new InputError(
          `${source}: nesting deeper than the YAML parser can follow (limit ${MAX_DEPTH} levels)`,
        );
      throw new InputError(
        `${source}${line ? `:${line.line}:${line.col}` : ''}: YAML syntax error: ${err.message.split('\n')[0]}`,
      );
    }
    const w: Walk = {
      source,
      lineOf,
      anchors: new Map(),
      size: new Map(),
      inProgress: new Set(),
      path: [],
      duplicate: undefined,
    };
    total += measure(w, doc.contents as AnyNode, 0).nodes;
    if (total > MAX_YAML_NODES)
      throw new InputError(
        `${source}: expands to more than ${MAX_YAML_NODES} nodes once aliases are followed (the YAML node limit)`,
      );
    // the walk above bounded what aliases expand to, so the parser's own alias heuristic is not needed
    out.push({ value: doc.toJS({ maxAliasCount: -1 }), duplicate: w.duplicate });
  }
  return out;
}
