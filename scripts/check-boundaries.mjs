#!/usr/bin/env node
// The module boundaries (issue 17 item 6), part of `npm run lint`:
//   1. dependency-cruiser's rules (.dependency-cruiser.cjs): another server module only through its
//      index.ts, platform/ and providers/ below the modules, contracts import nothing from the apps, web
//      features only through each other's index;
//   2. no cycle between whole server modules (a folder imports another, directly or through others, that
//      imports it back), which file-level rules cannot see.
// What is still left of the old code is listed in scripts/boundaries-baseline.json, which may only shrink:
// a new violation or a new cycle fails, and so does a listed one that is gone (take it off the list).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineFile = path.join(root, 'scripts', 'boundaries-baseline.json');
const update = process.argv.includes('--update-baseline');

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
    if (!to || to === from) continue;
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

if (update) {
  fs.writeFileSync(baselineFile, `${JSON.stringify(found, null, 2)}\n`);
  console.log(`boundaries: baseline written, ${found.length} entries`);
  process.exit(0);
}
const baseline = new Set(
  fs.existsSync(baselineFile) ? JSON.parse(fs.readFileSync(baselineFile, 'utf8')) : [],
);
const membersOf = (entry) => entry.slice('cycle: '.length).split(' ↔ ');
const knownCycles = [...baseline].filter((entry) => entry.startsWith('cycle: ')).map(membersOf);
/** A cycle is known when a listed one holds all its modules (a cycle that shrank is progress). */
const known = (entry) =>
  baseline.has(entry) ||
  (entry.startsWith('cycle: ') &&
    knownCycles.some((members) => membersOf(entry).every((module) => members.includes(module))));
const added = found.filter((entry) => !known(entry));
const gone = [...baseline].filter((entry) => !found.includes(entry));
console.log(
  `boundaries: ${violations.length} rule violations, ${cycles.length} module cycles, ${twoWay.length} two-way pairs (${baseline.size} known)`,
);
if (added.length > 0) {
  console.error(`New boundary violations (fix them; the baseline only shrinks):\n  ${added.join('\n  ')}`);
}
if (gone.length > 0) {
  console.error(
    `Fixed, still in scripts/boundaries-baseline.json (run node scripts/check-boundaries.mjs --update-baseline):\n  ${gone.join('\n  ')}`,
  );
}
process.exit(added.length > 0 || gone.length > 0 ? 1 : 0);
