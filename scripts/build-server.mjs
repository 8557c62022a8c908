// Bundles the server (and the engine child entry) with esbuild. Workspace packages (@parla/*) are
// bundled from their TypeScript source; every other package stays an import from node_modules.
// `--engine-child-only <dir>` bundles only the child entry into <dir>: the integration and stress legs
// start their engine children from it (test/global-setup.ts) instead of compiling the source under tsx in
// every child and every engine thread. `--test-bundle <dir>` bundles the server, the admin command and the
// child entry into <dir>: the integration leg's tests that run the server or the admin command as a
// process of its own start them from it (test/processes.ts), as a build runs them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/server');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const childOnly = process.argv.indexOf('--engine-child-only');
const testBundle = process.argv.indexOf('--test-bundle');
const childEntry = { 'engine-child': path.join(server, 'src/providers/engines/engine-child.ts') };
const mainEntry = { main: path.join(server, 'src/main.ts') };
const adminEntry = { admin: path.join(server, 'src/admin.ts') };

await build({
  entryPoints:
    childOnly >= 0
      ? childEntry
      : testBundle >= 0
        ? { ...mainEntry, ...adminEntry, ...childEntry }
        : { ...mainEntry, ...childEntry },
  outdir:
    childOnly >= 0
      ? path.resolve(process.argv[childOnly + 1])
      : testBundle >= 0
        ? path.resolve(process.argv[testBundle + 1])
        : path.join(server, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  define: { __PARLA_VERSION__: JSON.stringify(version ?? '0.0.0') },
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-node-modules',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('@parla/')) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
});
if (childOnly < 0 && testBundle < 0) console.log('built apps/server/dist');
