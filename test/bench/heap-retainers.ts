// What holds the memory in a V8 heap snapshot (docs/benchmarks.md, "What holds the memory"): self size by
// constructor, and the objects retaining the most (dominator tree, Cooper–Harvey–Kennedy), each with the edge
// path from the GC root. Usage: node --max-old-space-size=12000 --import tsx test/bench/heap-retainers.ts FILE [TOP]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-retainers.ts <snapshot.heapsnapshot> [top]');
const TOP = Number(topArg ?? 40);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [fType, fName, fSelf, fEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
  meta.node_fields.indexOf(f),
) as [number, number, number, number];
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [
  number,
  number,
  number,
];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const WEAK = edgeTypes.indexOf('weak');
const N = snap.nodes.length / NF;
const firstEdge = new Uint32Array(N + 1);
for (let i = 0, e = 0; i < N; i++) {
  firstEdge[i] = e;
  e += (snap.nodes[i * NF + fEdges] as number) * EF;
  firstEdge[i + 1] = e;
}
const selfOf = (i: number) => snap.nodes[i * NF + fSelf] as number;
const typeOf = (i: number) => nodeTypes[snap.nodes[i * NF + fType] as number] as string;
const nameOf = (i: number) => {
  const t = typeOf(i);
  const n = snap.strings[snap.nodes[i * NF + fName] as number] as string;
  return t === 'object' || t === 'native' ? n : `(${t})`;
};
const edgeName = (e: number) => {
  const t = edgeTypes[snap.edges[e + eType] as number];
  const v = snap.edges[e + eName] as number;
  return t === 'element' || t === 'hidden' ? `[${v}]` : (snap.strings[v] ?? `?${v}`);
};

// Post-order DFS from the root over strong edges.
const order = new Int32Array(N).fill(-1);
const post: number[] = [];
{
  const stack: number[] = [0];
  const cursor = new Uint32Array(N);
  order[0] = -2;
  for (let i = 0; i < N; i++) cursor[i] = firstEdge[i] as number;
  while (stack.length) {
    const v = stack[stack.length - 1] as number;
    const c = cursor[v] as number;
    if (c < (firstEdge[v + 1] as number)) {
      cursor[v] = c + EF;
      if (snap.edges[c + eType] === WEAK) continue;
      const w = (snap.edges[c + eTo] as number) / NF;
      if (order[w] === -1) {
        order[w] = -2;
        stack.push(w);
      }
    } else {
      stack.pop();
      order[v] = post.length;
      post.push(v);
    }
  }
}
// Predecessors (strong edges from reachable nodes), CSR.
const predCount = new Uint32Array(N + 1);
for (const v of post)
  for (let e = firstEdge[v] as number; e < (firstEdge[v + 1] as number); e += EF)
    if (snap.edges[e + eType] !== WEAK) (predCount[(snap.edges[e + eTo] as number) / NF] as number)++;
const predStart = new Uint32Array(N + 1);
for (let i = 0; i < N; i++) predStart[i + 1] = (predStart[i] as number) + (predCount[i] as number);
const preds = new Uint32Array(predStart[N] as number);
const fill = predStart.slice();
for (const v of post)
  for (let e = firstEdge[v] as number; e < (firstEdge[v + 1] as number); e += EF)
    if (snap.edges[e + eType] !== WEAK) {
      const w = (snap.edges[e + eTo] as number) / NF;
      preds[(fill[w] as number)++] = v;
    }
// Dominators, iterated to a fixed point in reverse post-order.
const idom = new Int32Array(N).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while ((order[a] as number) < (order[b] as number)) a = idom[a] as number;
    while ((order[b] as number) < (order[a] as number)) b = idom[b] as number;
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let k = post.length - 2; k >= 0; k--) {
    const v = post[k] as number;
    let d = -1;
    for (let p = predStart[v] as number; p < (predStart[v + 1] as number); p++) {
      const u = preds[p] as number;
      if (idom[u] === -1) continue;
      d = d === -1 ? u : intersect(u, d);
    }
    if (d !== -1 && idom[v] !== d) {
      idom[v] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(N);
for (const v of post) retained[v] = (retained[v] as number) + selfOf(v);
for (const v of post)
  if (v !== 0)
    retained[idom[v] as number] = (retained[idom[v] as number] as number) + (retained[v] as number);

const mb = (x: number) => `${(x / 1048576).toFixed(1)} MB`;
let total = 0;
const bySelf = new Map<string, { size: number; count: number }>();
for (const v of post) {
  total += selfOf(v);
  const k = nameOf(v);
  const r = bySelf.get(k) ?? { size: 0, count: 0 };
  r.size += selfOf(v);
  r.count++;
  bySelf.set(k, r);
}
process.stdout.write(
  `${post.length} reachable objects, ${mb(total)} self size in all\n\nself size by constructor:\n`,
);
for (const [k, r] of [...bySelf].sort((a, b) => b[1].size - a[1].size).slice(0, TOP))
  process.stdout.write(`  ${mb(r.size).padStart(10)}  ${String(r.count).padStart(9)}  ${k}\n`);

// Plain objects told apart by their first property names (a pod, its metadata, a label map, ...).
const byShape = new Map<string, { size: number; count: number }>();
for (const v of post) {
  if (nameOf(v) !== 'Object') continue;
  const props: string[] = [];
  for (let e = firstEdge[v] as number; e < (firstEdge[v + 1] as number) && props.length < 4; e += EF)
    if (edgeTypes[snap.edges[e + eType] as number] === 'property') {
      const n = edgeName(e);
      if (n !== 'map' && n !== '__proto__') props.push(n);
    }
  const k = `{${props.join(', ')}}`;
  const r = byShape.get(k) ?? { size: 0, count: 0 };
  r.size += selfOf(v);
  r.count++;
  byShape.set(k, r);
}
process.stdout.write(`\nplain objects by their first properties (self size):\n`);
for (const [k, r] of [...byShape].sort((a, b) => b[1].size - a[1].size).slice(0, TOP))
  process.stdout.write(`  ${mb(r.size).padStart(10)}  ${String(r.count).padStart(9)}  ${k}\n`);

// The retaining path of a node: its dominator chain, each step named by an edge from the dominator if one exists.
const pathOf = (v: number): string => {
  const steps: string[] = [];
  for (let x = v; x !== 0 && steps.length < 12; x = idom[x] as number) {
    const d = idom[x] as number;
    let label = '~';
    for (let e = firstEdge[d] as number; e < (firstEdge[d + 1] as number); e += EF)
      if ((snap.edges[e + eTo] as number) / NF === x) {
        label = edgeName(e);
        break;
      }
    steps.push(`${label}:${nameOf(x)}`);
  }
  return steps.reverse().join(' > ');
};
process.stdout.write(`\nlargest retainers (retained size, dominator path from the root):\n`);
const top = post
  .filter((v) => v !== 0 && (retained[v] as number) > total / 200)
  .sort((a, b) => (retained[b] as number) - (retained[a] as number))
  .slice(0, TOP);
for (const v of top) process.stdout.write(`  ${mb(retained[v] as number).padStart(10)}  ${pathOf(v)}\n`);
