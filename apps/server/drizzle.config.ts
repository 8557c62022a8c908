import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate -w @parla/server` writes a new SQL migration from the tables. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './drizzle',
});
