import type { HistoryDialogueLine, HistoryFeedback, OutputFormat } from '@parla/contracts';
import { getTableColumns, sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * What was generated (history/voices §3 "history item"): written by text to speech in the same
 * transaction that settles its credits.
 */
export const historyItems = pgTable(
  'history_items',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source', { enum: ['TTS', 'STS'] }).notNull(),
    voiceId: text('voice_id').notNull(),
    voiceName: text('voice_name').notNull(),
    voiceCategory: text('voice_category').notNull(),
    modelId: text('model_id').notNull(),
    text: text('text').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    outputFormat: text('output_format').notNull(),
    contentType: text('content_type').notNull(),
    audioKey: text('audio_key').notNull(),
    audioBytes: integer('audio_bytes').notNull(),
    durationMs: integer('duration_ms').notNull(),
    alignment: jsonb('alignment').$type<{ alignment: unknown; normalized_alignment: unknown }>(),
    characterCountChangeFrom: integer('character_count_change_from').notNull(),
    characterCountChangeTo: integer('character_count_change_to').notNull(),
    requestId: text('request_id'),
    /** history/voices §3 "Feedback on a history item", as the response carries it; null until given. */
    feedback: jsonb('feedback').$type<HistoryFeedback>(),
    /** The lines of a text-to-dialogue generation (history/voices §3 "dialogue"); null for one voice. */
    dialogue: jsonb('dialogue').$type<HistoryDialogueLine[]>(),
    /** The public id of the item's share link, made on the first share-link call; null until shared. */
    shareLinkId: text('share_link_id').unique(),
    /** Who made the share link: the share page shows their public name. */
    sharedByUserId: text('shared_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The words of the text for full-text `search` (the 'simple' dictionary: any language, no stemming). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', text)`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('history_items_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('history_items_search_idx').using('gin', t.searchVector),
  ],
);

/** The columns an item is read with: all but the search vector, which only the database needs. */
export const historyItemColumns = (() => {
  const { searchVector: _searchVector, ...columns } = getTableColumns(historyItems);
  return columns;
})();

export type HistoryItemRow = Omit<typeof historyItems.$inferSelect, 'searchVector'>;

/** A history item to write: everything but where and how its audio is stored. */
export type HistoryItemInsert = Omit<
  typeof historyItems.$inferInsert,
  'audioKey' | 'contentType' | 'audioBytes' | 'outputFormat'
> & {
  id: string;
  workspaceId: string;
  outputFormat: OutputFormat;
};
