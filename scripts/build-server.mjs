// Bundles the server (and the engine child entry) with esbuild. Workspace packages (@parla/*) are
// bundled from their TypeScript source; every other package stays an import from node_modules.
// `--engine-child-only <dir>` bundles only the child entry into <dir>: the integration and stress legs
// start their engine children from it (test/global-setup.ts) instead of compiling the source under tsx in
// every child and every engine thread.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/server');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const childOnly = process.argv.indexOf('--engine-child-only');
const childEntry = { 'engine-child': path.join(server, 'src/providers/engines/engine-child.ts') };

await build({
  entryPoints: childOnly >= 0 ? childEntry : { main: path.join(server, 'src/main.ts'), ...childEntry },
  outdir: childOnly >= 0 ? path.resolve(process.argv[childOnly + 1]) : path.join(server, 'dist'),
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
if (childOnly < 0) console.log('built apps/server/dist');
