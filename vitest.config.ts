import { defineConfig } from 'vitest/config';

/**
 * Four projects: `unit` (pure rules, node), `web` (React in jsdom), `stress` (long runs against the real
 * engines, `*.stress.test.ts`) and `integration` (the real HTTP app on a real database: PGlite by default,
 * PostgreSQL when DATABASE_URL is set). Integration tests are named `*.int.test.ts` and live beside the
 * code they cover.
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
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/server/src/**/*.int.test.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
