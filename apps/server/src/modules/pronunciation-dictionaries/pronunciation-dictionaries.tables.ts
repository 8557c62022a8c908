import type { PronunciationDictionaryLocator, PronunciationRule } from '@parla/contracts';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A workspace's pronunciation dictionary (issue 30): its name and the version it is at. Its rules live in
 * its versions, each immutable, so a request naming an old version hears that version's rules.
 */
export const pronunciationDictionaries = pgTable(
  'pronunciation_dictionaries',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who made it: the answer's `created_by` (kept when they leave: their id stays as written). */
    createdBy: text('created_by').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** As asked at creation (admin, editor, commenter, viewer); every member reads and edits in Parla. */
    workspaceAccess: text('workspace_access'),
    latestVersionId: text('latest_version_id').notNull(),
    latestRulesNum: integer('latest_rules_num').notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pronunciation_dictionaries_workspace_idx').on(t.workspaceId, t.createdAt, t.id)],
);
export type PronunciationDictionaryRow = typeof pronunciationDictionaries.$inferSelect;

/** One version of a dictionary: its rules as they were after one change (create, add, remove, set). */
export const pronunciationDictionaryVersions = pgTable(
  'pronunciation_dictionary_versions',
  {
    id: text('id').primaryKey(),
    dictionaryId: text('dictionary_id')
      .notNull()
      .references(() => pronunciationDictionaries.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** 1, 2, 3… in the dictionary's order of changes. */
    number: integer('number').notNull(),
    rules: jsonb('rules').$type<PronunciationRule[]>().notNull(),
    rulesNum: integer('rules_num').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pronunciation_dictionary_versions_dictionary_idx').on(t.dictionaryId, t.number)],
);
export type PronunciationDictionaryVersionRow = typeof pronunciationDictionaryVersions.$inferSelect;

/**
 * The workspace's default dictionaries (accounts §3 Workspace `pronunciation_dictionary_locators`): a
 * setting of the workspace kept here, keyed by its id (docs/add-a-capability.md "Tables").
 */
export const workspacePronunciationDefaults = pgTable('workspace_pronunciation_defaults', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  locators: jsonb('locators').$type<PronunciationDictionaryLocator[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
