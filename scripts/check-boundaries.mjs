#!/usr/bin/env node
// The module boundaries (issue 17 item 6), part of `npm run lint`:
//   1. dependency-cruiser's rules (.dependency-cruiser.cjs): another server module only through its
//      index.ts, platform/ and providers/ below the modules, contracts import nothing from the apps, web
//      features only through each other's index;
//   2. no cycle between whole server modules (a folder imports another, directly or through others, that
//      imports it back), which file-level rules cannot see; the *.tables.ts are the schema all modules
//      share, below them, so an import of one is not an edge between modules.
// Any violation or cycle fails the lint, and CI with it.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const json = execFileSync(
  path.join(root, 'node_modules', '.bin', 'depcruise'),
  [
    'apps/server/src',
    'apps/web/src',
    'packages/contracts/src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'json',
  ],
  { cwd: root, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
).toString();
const result = JSON.parse(json);

const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

// The graph of server modules: an edge when a file of one imports a file of another (tests aside).
const MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const edges = new Map();
for (const file of result.modules) {
  const from = MODULE.exec(file.source)?.[1];
  if (!from || /\.test\.tsx?$/.test(file.source)) continue;
  for (const dependency of file.dependencies) {
    const to = MODULE.exec(dependency.resolved)?.[1];
    // The tables are the schema every module shares (foreign keys, joins): they are below all modules.
    if (!to || to === from || dependency.resolved.endsWith('.tables.ts')) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
  }
}

/** Strongly connected components (Tarjan): a component of more than one module is a cycle. */
function components(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      for (;;) {
        const w = stack.pop();
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

// Each two-way pair inside a cycle, and each cycle as its sorted members.
const cycles = components(edges).map((c) => `cycle: ${c.join(' ↔ ')}`);
const twoWay = [];
for (const [a, targets] of edges)
  for (const b of targets) if (a < b && edges.get(b)?.has(a)) twoWay.push(`two-way: ${a} ↔ ${b}`);
const found = [...violations, ...cycles, ...twoWay.sort()];

console.log(
  `boundaries: ${violations.length} rule violations, ${cycles.length} module cycles, ${twoWay.length} two-way pairs`,
);
if (found.length > 0) {
  console.error(`Module boundaries crossed:\n  ${found.join('\n  ')}`);
  process.exit(1);
}
