import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate -w @parla/server` writes a new SQL migration from the tables. */
export default defineConfig({
  dialect: 'postgresql',
  // Every module's tables and the platform's (jobs, rate limits): a new module's `*.tables.ts` is found.
  schema: ['./src/modules/*/*.tables.ts', './src/platform/*/*.tables.ts'],
  out: './drizzle',
});
