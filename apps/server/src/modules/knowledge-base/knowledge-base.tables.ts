import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A document of a workspace's knowledge base (issue 28 item 3): made from text, a file or a web page, kept
 * as the text extracted from it (`content_html`, what the content call answers) and cut into chunks.
 */
export const kbDocuments = pgTable(
  'kb_documents',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** text | file | url (the public API's `KnowledgeBaseDocumentType`; folders are not kept). */
    type: text('type', { enum: ['text', 'file', 'url'] }).notNull(),
    /** What the text was extracted from: text, txt, md, html, pdf, docx, epub. */
    sourceFormat: text('source_format').notNull(),
    /** The uploaded file's name (file documents). */
    filename: text('filename'),
    /** The page's address (url documents): the last one after redirects. */
    url: text('url'),
    /** The extracted content as the public API's `extracted_inner_html` (markdown for .md files). */
    contentHtml: text('content_html').notNull(),
    contentFormat: text('content_format', { enum: ['html', 'markdown'] }).notNull(),
    /** The plain text the chunks were cut from. */
    contentText: text('content_text').notNull(),
    /** The size of the extracted text in UTF-8 bytes (`metadata.size_bytes`). */
    sizeBytes: integer('size_bytes').notNull(),
    /**
     * Its passages' vectors (issue 28 item 3, only with an embedding model configured): `none` (no model
     * when it was indexed), `pending` (the knowledge-base.embed job computes them), `computed`, `failed`
     * (`embedding_error` says why; full-text search still finds it).
     */
    embeddingStatus: text('embedding_status', { enum: ['none', 'pending', 'computed', 'failed'] })
      .notNull()
      .default('none'),
    /** The embedding model the vectors were computed with (pending: the one asked for). */
    embeddingModel: text('embedding_model'),
    embeddingError: text('embedding_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('kb_documents_workspace_idx').on(t.workspaceId, t.createdAt, t.id)],
);
export type KbDocumentRow = typeof kbDocuments.$inferSelect;

/**
 * A passage of a document (about 800 to 1,200 characters, overlapping its neighbour a little), with its
 * words for PostgreSQL full-text search: the 'english' configuration (stems and stop words), the GIN index
 * answers each conversation turn's retrieval.
 */
export const kbChunks = pgTable(
  'kb_chunks',
  {
    id: text('id').primaryKey(),
    documentId: text('document_id')
      .notNull()
      .references(() => kbDocuments.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** 0, 1, 2… in the document's order. */
    position: integer('position').notNull(),
    content: text('content').notNull(),
    searchVector: tsvector('search_vector').notNull().generatedAlwaysAs(sql`to_tsvector('english', content)`),
    /**
     * The passage's vector from the document's embedding model (null until computed). A plain `real[]`,
     * not pgvector, so PGlite and a stock PostgreSQL both hold it; similarity is computed in TypeScript.
     */
    embedding: real('embedding').array(),
  },
  (t) => [
    index('kb_chunks_document_idx').on(t.documentId, t.position),
    index('kb_chunks_search_idx').using('gin', t.searchVector),
  ],
);
export type KbChunkRow = typeof kbChunks.$inferSelect;

/**
 * Which agents use which documents, as the agents module tells it through the front door
 * (`setAgentDocuments`): the list's `dependent_agents`, and a delete without `force` is refused while any
 * agent uses the document. The agent's name is kept here so this module never reads the agents' tables.
 */
export const kbDocumentAgents = pgTable(
  'kb_document_agents',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => kbDocuments.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    agentName: text('agent_name').notNull(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.agentId] }),
    index('kb_document_agents_agent_idx').on(t.agentId),
  ],
);
