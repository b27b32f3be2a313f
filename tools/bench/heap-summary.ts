import { readFileSync } from 'node:fs';

/**
 * `node dist/tools/bench/heap-summary.js FILE.heapsnapshot [TOP]`: what holds
 * a V8 heap snapshot's memory (the memory scenario writes them with
 * BENCH_HEAP_SNAPSHOT_DIR), by constructor (self sizes) and by package
 * (retained sizes): the code of each package (its sources, functions and
 * bytecode) and the data its modules keep (their module-level variables and
 * their exports). Retained sizes come from the dominator tree (Cooper,
 * Harvey and Kennedy's iterative algorithm), as in Chrome's heap profiler.
 */
interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; root_index?: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

class Heap {
  readonly count: number;
  readonly firstEdge: Uint32Array;
  private readonly nodeFields: number;
  private readonly edgeFields: number;
  private readonly nodeTypes: string[];
  private readonly edgeTypes: string[];

  constructor(private readonly raw: Snapshot) {
    const meta = raw.snapshot.meta;
    this.nodeFields = meta.node_fields.length;
    this.edgeFields = meta.edge_fields.length;
    this.nodeTypes = meta.node_types[0];
    this.edgeTypes = meta.edge_types[0];
    this.count = raw.nodes.length / this.nodeFields;
    this.firstEdge = new Uint32Array(this.count + 1);
    for (let node = 0, edge = 0; node < this.count; node += 1) {
      this.firstEdge[node] = edge;
      edge += raw.nodes[node * this.nodeFields + 4] * this.edgeFields;
      this.firstEdge[node + 1] = edge;
    }
  }

  type(node: number): string {
    return this.nodeTypes[this.raw.nodes[node * this.nodeFields]];
  }

  name(node: number): string {
    return this.raw.strings[this.raw.nodes[node * this.nodeFields + 1]];
  }

  selfSize(node: number): number {
    return this.raw.nodes[node * this.nodeFields + 3];
  }

  /** Calls `visit(edgeType, edgeName, target)` for each edge of `node`. */
  edges(node: number, visit: (type: string, name: string | number, target: number) => void): void {
    const edges = this.raw.edges;
    for (let edge = this.firstEdge[node]; edge < this.firstEdge[node + 1]; edge += this.edgeFields) {
      const type = this.edgeTypes[edges[edge]];
      const name = type === 'element' || type === 'hidden' ? edges[edge + 1] : this.raw.strings[edges[edge + 1]];
      visit(type, name, edges[edge + 2] / this.nodeFields);
    }
  }

  /** Chrome's grouping: an object's constructor name, else its kind in parentheses. */
  className(node: number): string {
    const type = this.type(node);
    if (type === 'object' || type === 'native') return this.name(node);
    if (type === 'closure') return 'Function';
    if (type.endsWith('string')) return '(string)';
    return `(${type})`;
  }
}

/** Immediate dominators and retained sizes; weak edges do not retain. */
function dominators(heap: Heap): { dominator: Int32Array; retained: Float64Array } {
  const root = 0;
  const order: number[] = [];
  const postIndex = new Int32Array(heap.count).fill(-1);
  const predecessors: number[][] = Array.from({ length: heap.count }, () => []);
  const visited = new Uint8Array(heap.count);
  // Iterative depth-first search for the postorder.
  const stack: number[] = [root];
  const cursor = new Uint32Array(heap.count);
  visited[root] = 1;
  const targets = (node: number) => {
    const list: number[] = [];
    heap.edges(node, (type, _name, target) => type !== 'weak' && list.push(target));
    return list;
  };
  const children = new Map<number, number[]>();
  while (stack.length) {
    const node = stack[stack.length - 1];
    let list = children.get(node);
    if (!list) children.set(node, (list = targets(node)));
    if (cursor[node] < list.length) {
      const target = list[cursor[node]++];
      predecessors[target].push(node);
      if (!visited[target]) {
        visited[target] = 1;
        stack.push(target);
      }
    } else {
      stack.pop();
      children.delete(node);
      postIndex[node] = order.length;
      order.push(node);
    }
  }
  const dominator = new Int32Array(heap.count).fill(-1);
  dominator[root] = root;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (postIndex[a] < postIndex[b]) a = dominator[a];
      while (postIndex[b] < postIndex[a]) b = dominator[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let index = order.length - 2; index >= 0; index -= 1) {
      const node = order[index];
      let candidate = -1;
      for (const predecessor of predecessors[node]) {
        if (dominator[predecessor] === -1) continue;
        candidate = candidate === -1 ? predecessor : intersect(predecessor, candidate);
      }
      if (candidate !== -1 && dominator[node] !== candidate) {
        dominator[node] = candidate;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(heap.count);
  for (const node of order) retained[node] += heap.selfSize(node);
  for (const node of order) if (node !== root && dominator[node] >= 0) retained[dominator[node]] += retained[node];
  return { dominator, retained };
}

/** `cloudflare`, `@nestjs/core`, `node:internal`, or our own `apps/<app>` / `libs/<lib>`. */
function packageOf(path: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (modules) return modules[1];
  const ours = /\/dist\/((?:apps|libs|tools)\/[^/]+)/.exec(path);
  if (ours) return ours[1];
  if (path.startsWith('node:')) return 'node (built-in modules)';
  return '(other)';
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function main(): void {
  const [file, top = '20'] = process.argv.slice(2);
  if (!file) throw new Error('usage: heap-summary.js FILE.heapsnapshot [TOP]');
  const heap = new Heap(JSON.parse(readFileSync(file, 'utf8')) as Snapshot);
  const { retained } = dominators(heap);
  const total = retained[0];
  const rows = Number(top);

  const byClass = new Map<string, { count: number; self: number }>();
  for (let node = 0; node < heap.count; node += 1) {
    const entry = byClass.get(heap.className(node)) ?? { count: 0, self: 0 };
    entry.count += 1;
    entry.self += heap.selfSize(node);
    byClass.set(heap.className(node), entry);
  }

  // Scripts: `code` nodes named by their file, holding their source.
  const scriptPackage = new Map<number, string>();
  for (let node = 0; node < heap.count; node += 1) {
    if (heap.type(node) !== 'code') continue;
    const name = heap.name(node);
    if (!name.startsWith('/') && !name.startsWith('node:') && !name.startsWith('file://')) continue;
    let hasSource = false;
    heap.edges(node, (type, edgeName) => (hasSource ||= type === 'internal' && edgeName === 'source'));
    if (hasSource) scriptPackage.set(node, packageOf(name));
  }
  const code = new Map<string, number>();
  const data = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  for (const [script, owner] of scriptPackage) add(code, owner, retained[script]);
  // Functions (SharedFunctionInfos: bytecode, metadata) name their script.
  const functionScript = new Map<number, number>();
  for (let node = 0; node < heap.count; node += 1) {
    heap.edges(node, (type, name, target) => {
      if (type === 'internal' && name === 'script' && scriptPackage.has(target)) {
        functionScript.set(node, target);
        add(code, scriptPackage.get(target) as string, retained[node]);
      }
    });
  }
  // Module data: what each closure's context keeps (module-level variables), and each module's exports.
  const counted = new Set<number>();
  for (let node = 0; node < heap.count; node += 1) {
    if (heap.type(node) === 'closure') {
      let shared = -1;
      let context = -1;
      heap.edges(node, (type, name, target) => {
        if (type === 'internal' && name === 'shared') shared = target;
        if (type === 'internal' && name === 'context') context = target;
      });
      const script = functionScript.get(shared);
      if (script !== undefined && context >= 0 && !counted.has(context)) {
        counted.add(context);
        add(data, scriptPackage.get(script) as string, retained[context]);
      }
    } else if (heap.name(node) === 'Module') {
      let filename = '';
      let exports = -1;
      heap.edges(node, (type, name, target) => {
        if (type === 'property' && name === 'id' && heap.type(target).endsWith('string')) filename = heap.name(target);
        if (type === 'property' && name === 'filename' && heap.type(target).endsWith('string')) filename = heap.name(target);
        if (type === 'property' && name === 'exports') exports = target;
      });
      if (filename && exports >= 0 && !counted.has(exports)) {
        counted.add(exports);
        add(data, packageOf(filename), retained[exports]);
      }
    }
  }

  const lines = [`${file}: ${mib(total)} in ${heap.count} objects`, '', `Top ${rows} constructors by self size`, '| constructor | objects | self size |', '|---|---:|---:|'];
  for (const [name, entry] of [...byClass].sort((a, b) => b[1].self - a[1].self).slice(0, rows)) lines.push(`| ${name.slice(0, 60)} | ${entry.count} | ${mib(entry.self)} |`);
  const packages = new Set([...code.keys(), ...data.keys()]);
  const both = [...packages].map((name) => ({ name, code: code.get(name) ?? 0, data: data.get(name) ?? 0 })).sort((a, b) => b.code + b.data - (a.code + a.data));
  lines.push('', `Top ${rows} packages by retained size (code: sources, functions, bytecode; data: module-level variables and exports; overlapping objects counted once where first met)`);
  lines.push('| package | code | data | together |', '|---|---:|---:|---:|');
  for (const row of both.slice(0, rows)) lines.push(`| ${row.name} | ${mib(row.code)} | ${mib(row.data)} | ${mib(row.code + row.data)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
