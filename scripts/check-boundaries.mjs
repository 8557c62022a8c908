#!/usr/bin/env node
// The boundaries of the code (issues 17 and 26), part of `npm run lint`. It prints one line of counts and
// fails on any of:
//   1. dependency-cruiser's rules (.dependency-cruiser.cjs): another server module only through its
//      index.ts (the process entry points too), platform/ and providers/ below the modules, contracts
//      import nothing from the apps, the web's layers (features never import app/ or routes/, …);
//   2. a cycle between whole server modules, counting an import of another module's *.tables.ts as an
//      edge like any other (a join on someone's table is a dependency on them);
//   3. a write to another module's table: `.insert(t)`, `.update(t)`, `.delete(t)` on a table declared in
//      another module's *.tables.ts, or `insert into`, `update`, `delete from` one in a sql`…` text. A
//      module changes another's rows through that module's front door or an event (issue 26 item 3);
//   4. a web import back up the layers app → routes → features → ui → lib (a lower layer importing a
//      higher one), and a cycle between files of the web app.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = 'apps/server/src';
const WEB = 'apps/web/src';
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.startsWith(`${SERVER}/test/`);

const json = execFileSync(
  path.join(root, 'node_modules', '.bin', 'depcruise'),
  [SERVER, WEB, 'packages/contracts/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
  { cwd: root, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
).toString();
const result = JSON.parse(json);
const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

/** Strongly connected components (Tarjan) of a graph given as Map<node, Set<node>>; only those of 2+. */
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

function addEdge(graph, from, to) {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
}

// ---- 2. The graph of server modules: an edge when a file of one imports a file of another, tables too.
const MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const modules = new Map();
for (const file of result.modules) {
  const from = MODULE.exec(file.source)?.[1];
  if (!from || isTest(file.source)) continue;
  for (const dependency of file.dependencies) {
    const to = MODULE.exec(dependency.resolved)?.[1];
    if (to && to !== from) addEdge(modules, from, to);
  }
}
const moduleCycles = components(modules).map((c) => `module cycle: ${c.join(' ↔ ')}`);

// Every module has a front door (issue 26 item 1), even one that offers nothing yet (it says so).
const moduleDirs = fs
  .readdirSync(path.join(root, SERVER, 'modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const noFrontDoor = moduleDirs
  .filter((name) => !fs.existsSync(path.join(root, SERVER, 'modules', name, 'index.ts')))
  .map((name) => `no front door: apps/server/src/modules/${name}/index.ts is missing`);

// ---- 3. Writes to another module's table.
/** The module (or `platform`) a server file belongs to. */
const ownerOf = (file) => MODULE.exec(file)?.[1] ?? 'platform';
const serverFiles = fs
  .readdirSync(path.join(root, SERVER), { recursive: true, encoding: 'utf8' })
  .map((file) => `${SERVER}/${file.split(path.sep).join('/')}`)
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !isTest(file));
const sources = new Map(serverFiles.map((file) => [file, fs.readFileSync(path.join(root, file), 'utf8')]));
/** Each table's owner, by the name its SQL uses (`pgTable('users', …)`). */
const tableOwners = new Map();
for (const [file, source] of sources) {
  if (!file.endsWith('.tables.ts')) continue;
  for (const match of source.matchAll(/pgTable\(\s*'([a-z0-9_]+)'/g))
    tableOwners.set(match[1], ownerOf(file));
}
/** The texts of the sql`…` templates of a source (nested templates inside `${…}` included). */
function sqlTexts(source) {
  const texts = [];
  for (let start = source.indexOf('sql`'); start !== -1; start = source.indexOf('sql`', start + 1)) {
    let depth = 0;
    let text = '';
    for (let i = start + 4; i < source.length; i++) {
      const c = source[i];
      if (depth === 0 && c === '`') break;
      if (depth === 0 && c === '$' && source[i + 1] === '{') {
        depth = 1;
        i++;
        text += ' ';
        continue;
      }
      if (depth > 0) {
        if (c === '{') depth++;
        else if (c === '}') depth--;
        continue;
      }
      text += c;
    }
    texts.push(text);
  }
  return texts;
}
const lineOf = (source, index) => source.slice(0, index).split('\n').length;
const foreignWrites = [];
for (const [file, source] of sources) {
  const me = ownerOf(file);
  // Drizzle's builders: the identifiers imported from a *.tables.ts, by their local name.
  const imported = new Map();
  for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+\.tables)'/g)) {
    const owner = ownerOf(path.posix.join(path.posix.dirname(file), match[2]));
    for (const part of match[1].split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name) imported.set((alias ?? name).trim(), owner);
    }
  }
  for (const match of source.matchAll(/\.(insert|update|delete)\(\s*([A-Za-z_$][\w$]*)\s*\)/g)) {
    const owner = imported.get(match[2]);
    if (owner && owner !== me)
      foreignWrites.push(
        `foreign write: ${me} ${match[1]}s ${owner}'s ${match[2]} (${file}:${lineOf(source, match.index)})`,
      );
  }
  for (const text of sqlTexts(source)) {
    for (const match of text.matchAll(/\b(insert\s+into|update|delete\s+from)\s+"?([a-z0-9_]+)"?/gi)) {
      const owner = tableOwners.get(match[2]);
      if (owner && owner !== me)
        foreignWrites.push(
          `foreign write: ${me} writes ${owner}'s ${match[2]} in SQL (${file}: "${match[0]}")`,
        );
    }
  }
}

// ---- Jobs get their dependencies from the worker (issue 26 item 2): no module-level `let …Deps` that a
// `provide…Deps` call fills in for a job to read.
const providedDeps = [];
for (const [file, source] of sources) {
  for (const match of source.matchAll(/^let\s+\w*Deps\b|\bprovide\w*Deps\s*\(/gm))
    providedDeps.push(
      `provided deps: ${file}:${lineOf(source, match.index)} "${match[0]}" (a job's dependencies come from its manifest)`,
    );
}

// ---- A module's queries run in its stores (issue 26 item 3): no other file of a module runs one (a file
// may build an SQL condition for the stores, as the workspaces' holdsRole does, but not execute it).
const queriesOutsideStores = [];
for (const [file, source] of sources) {
  if (!file.startsWith(`${SERVER}/modules/`) || /\.(store|tables)\.ts$/.test(file)) continue;
  for (const match of source.matchAll(
    /\b\w*(?:db|Db|tx|Tx|trx)\s*\.\s*(select\w*|insert|update|delete|execute|\$count|query\s*\.\s*\w+\s*\.\s*find\w*|with)\s*\(/g,
  ))
    queriesOutsideStores.push(
      `query outside a store: ${file}:${lineOf(source, match.index)} "${match[0]}" (move it into the module's *.store.ts)`,
    );
}

// ---- 4. The web's layers, top to bottom; a test and the test helpers are outside them.
const LAYERS = ['app', 'routes', 'features', 'ui', 'lib'];
const WEB_FILE = /^apps\/web\/src\/([^/]+)\//;
const layerOf = (file) => {
  const layer = WEB_FILE.exec(file)?.[1];
  return layer && LAYERS.includes(layer) && !isTest(file) ? layer : undefined;
};
const backUp = [];
const webFiles = new Map();
for (const file of result.modules) {
  const from = layerOf(file.source);
  if (!from) continue;
  for (const dependency of file.dependencies) {
    const to = layerOf(dependency.resolved);
    if (!to) continue;
    addEdge(webFiles, file.source, dependency.resolved);
    if (LAYERS.indexOf(to) < LAYERS.indexOf(from))
      backUp.push(`web import back up: ${from} → ${to} (${file.source} → ${dependency.resolved})`);
  }
}
const webCycles = components(webFiles).map((c) => `web cycle of ${c.length} files: ${c.join(', ')}`);

const found = [
  ...violations,
  ...noFrontDoor,
  ...moduleCycles,
  ...foreignWrites.sort(),
  ...providedDeps,
  ...queriesOutsideStores,
  ...backUp.sort(),
  ...webCycles,
];
console.log(
  `boundaries: ${violations.length} rule violations, ${noFrontDoor.length} modules without a front door, ` +
    `${moduleCycles.length} module cycles (tables included), ` +
    `${foreignWrites.length} foreign-table writes, ${queriesOutsideStores.length} queries outside stores, ` +
    `${providedDeps.length} provided job deps, ` +
    `${backUp.length} web imports back up, ${webCycles.length} web cycles`,
);
if (found.length > 0) {
  console.error(`Boundaries crossed:\n  ${found.join('\n  ')}`);
  process.exit(1);
}
