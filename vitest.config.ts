import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * A web test that renders the whole app (router, lazy pages, shell) took over 5 s, vitest's default, on
 * the loaded 2-core CI machine (the notifications bell's shell test, 2026-11-28): such a test waits on
 * real module loading, so the web projects allow 20 s, as the whole-app suites already asked for.
 */
const webTestTimeoutMs = 20_000;

/**
 * The web tests that mock a module (`vi.mock`). A module mock holds only in a file that gets a module
 * graph of its own, so these run isolated (a process per file) in their own project, `web-mocks`; the
 * other web tests share their worker's jsdom and modules (`isolate: false`). A file whose first comment says
 * `@vitest-isolate` runs there too: one whose Radix menus do not open after some other files in a shared
 * jsdom (the app sidebar's account menu; the cause is not found yet).
 */
const webRoot = fileURLToPath(new URL('./apps/web/', import.meta.url));
const webTests = fs
  .readdirSync(path.join(webRoot, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => path.join('src', file).split(path.sep).join('/'));
const webTestsThatMock = webTests.filter((file) =>
  /\bvi\.(do)?mock\(|@vitest-isolate\b/.test(fs.readFileSync(path.join(webRoot, file), 'utf8')),
);

/**
 * The integration files the PostgreSQL leg (DATABASE_URL set) leaves to the PGlite leg: those whose first
 * line says `@postgres-leg skip: <why>` — engine-heavy files whose database work other files cover on
 * PostgreSQL (the leg proves the driver, pooling and concurrency; the engines do not change with it).
 */
const serverSrc = fileURLToPath(new URL('./apps/server/src/', import.meta.url));
const postgresSkipped = process.env.DATABASE_URL
  ? fs
      .readdirSync(serverSrc, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.int.test.ts'))
      .filter((file) =>
        fs.readFileSync(path.join(serverSrc, file), 'utf8').startsWith('// @postgres-leg skip'),
      )
      .map((file) => path.join('apps/server/src', file).split(path.sep).join('/'))
  : [];

/**
 * Five projects: `unit` (pure rules, node), `web` and `web-mocks` (React in jsdom, see above), `stress`
 * (long runs against the real engines, `*.stress.test.ts`) and `integration` (the real HTTP app on a real
 * database: PGlite by default, PostgreSQL when DATABASE_URL is set). Integration tests are named
 * `*.int.test.ts` and live beside the code they cover.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.stress.test.ts', '**/node_modules/**'],
        },
      },
      {
        // Long runs against the real engines (thousands of syntheses): their own leg, one file at a time.
        test: {
          name: 'stress',
          environment: 'node',
          include: ['apps/server/src/**/*.stress.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          setupFiles: ['apps/server/src/test/child-bundle.setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // React in jsdom. Setting up jsdom and importing React and the app cost more than most files'
        // tests (issue 17 item 8: 87 files, CPU 375 s isolated, 101 s shared), so a worker sets them up
        // once for all its files. Each file cleans up what it renders and stubs (cleanup,
        // vi.unstubAllGlobals, the fixtures' clean-ups); vitest restores spies between files.
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...webTestsThatMock, '**/node_modules/**'],
          isolate: false,
          setupFiles: ['./src/test/fresh-browser-state.ts', './src/test/async-timeouts.ts'],
          testTimeout: webTestTimeoutMs,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web-mocks',
          root: './apps/web',
          environment: 'jsdom',
          include: webTestsThatMock,
          setupFiles: ['./src/test/async-timeouts.ts'],
          testTimeout: webTestTimeoutMs,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/server/src/**/*.int.test.ts'],
          exclude: [...postgresSkipped, '**/node_modules/**'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          setupFiles: ['apps/server/src/test/child-bundle.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One process for the files, not one each: each file still builds its own app, database and
          // engine pool (createTestApp) and closes them, so what they share is the modules' code and the
          // program host. 822 → 670 s on PGlite (issue 19's suite-time note).
          isolate: false,
        },
      },
    ],
  },
});
