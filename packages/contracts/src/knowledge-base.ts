import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * The conversational agents' knowledge base (issue 28 item 3; history/voices §7 "knowledge base"). The calls
 * and shapes follow `conversationalAi.knowledgeBase` of `@elevenlabs/elevenlabs-js` (`documents.createFromText`,
 * `createFromFile`, `createFromUrl`, `list`, `get`, `update`, `delete`, `getContent`, `chunk.get`,
 * `chunks.list`, `search`, `document.computeRagIndex`, `getOrCreateRagIndexes`, and the top-level
 * `ragIndexOverview`, `getDocumentRagIndexes`, `deleteDocumentRagIndex`). Documents are searched with
 * PostgreSQL full-text search; vector embeddings exist only when an embedding model is configured, which
 * this server does not have yet: the RAG index calls say so in their answers.
 */

/** The largest file `POST /v1/convai/knowledge-base/file` takes. */
export const KB_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The most text a document may hold once extracted (about 400 pages). */
export const KB_MAX_TEXT_CHARS = 1_000_000;
/** The largest page `POST /v1/convai/knowledge-base/url` reads, and how long it waits for it. */
export const KB_MAX_URL_BYTES = 5 * 1024 * 1024;
/** The most extracted text a workspace's documents may hold in all (`total_max_bytes`). */
export const KB_MAX_WORKSPACE_BYTES = 100 * 1024 * 1024;

/** The file types a document may be made from, by extension, with the content types browsers send. */
export const KB_FILE_TYPES = {
  pdf: ['application/pdf'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  txt: ['text/plain'],
  html: ['text/html', 'application/xhtml+xml'],
  htm: ['text/html'],
  md: ['text/markdown', 'text/x-markdown'],
  epub: ['application/epub+zip'],
} as const;
export type KbFileType = keyof typeof KB_FILE_TYPES;

export const KB_DOCUMENT_TYPES = ['file', 'url', 'text', 'folder'] as const;
export type KbDocumentType = (typeof KB_DOCUMENT_TYPES)[number];
/** `EmbeddingModelEnum`: the models the public API indexes with. */
export const KB_EMBEDDING_MODELS = ['e5_mistral_7b_instruct', 'multilingual_e5_large_instruct'] as const;
export const KB_RAG_INDEX_STATUSES = [
  'new',
  'created',
  'processing',
  'failed',
  'succeeded',
  'rag_limit_exceeded',
  'document_too_small',
  'cannot_index_folder',
] as const;
/** How an agent may use a document (`DocumentUsageModeEnum`). */
export const KB_USAGE_MODES = ['prompt', 'auto'] as const;
export const KB_SORT_BY = ['name', 'created_at', 'updated_at', 'size'] as const;

const DocumentName = z
  .string()
  .trim()
  .min(1, 'Give the document a name.')
  .max(200, 'At most 200 characters.');
const FolderId = z.string().max(100).optional();

export const CreateTextDocumentRequest = z.object({
  text: z
    .string()
    .min(1, 'The text is empty.')
    .max(KB_MAX_TEXT_CHARS, `At most ${KB_MAX_TEXT_CHARS.toLocaleString('en')} characters.`),
  name: DocumentName.optional(),
  /** Folders are not kept by this server: a value other than none is refused. */
  parent_folder_id: FolderId,
});
export type CreateTextDocumentRequest = z.infer<typeof CreateTextDocumentRequest>;

export const CreateUrlDocumentRequest = z.object({
  url: z.string().trim().min(1, 'Enter the address of the page.').max(2048, 'At most 2,048 characters.'),
  name: DocumentName.optional(),
  parent_folder_id: FolderId,
  /** Accepted and not acted on: this server does not re-fetch pages on a schedule. */
  enable_auto_sync: z.boolean().optional(),
  auto_remove: z.boolean().optional(),
  minimum_frequency_days: z.number().int().min(1).max(365).optional(),
});
export type CreateUrlDocumentRequest = z.infer<typeof CreateUrlDocumentRequest>;

/** The text fields of the multipart `POST /v1/convai/knowledge-base/file` (the file is `file`). */
export const CreateFileDocumentFields = z.object({
  name: DocumentName.optional(),
  parent_folder_id: FolderId,
});

/** `AddKnowledgeBaseResponseModel`. */
export const AddKnowledgeBaseResponse = z.object({
  id: z.string(),
  name: z.string(),
  folder_path: z
    .array(z.object({ id: z.string() }))
    .nullable()
    .optional(),
});

const Metadata = z.object({
  created_at_unix_secs: z.number().int(),
  last_updated_at_unix_secs: z.number().int(),
  size_bytes: z.number().int(),
});

const AccessInfo = z.object({
  is_creator: z.boolean(),
  creator_name: z.string(),
  creator_email: z.string(),
  role: z.enum(['admin', 'editor', 'commenter', 'viewer']),
});

/** An agent that uses the document (`DependentAvailableAgentIdentifier`). */
export const KbDependentAgent = z.object({
  type: z.literal('available'),
  id: z.string(),
  name: z.string(),
  created_at_unix_secs: z.number().int(),
  access_level: z.enum(['admin', 'editor', 'commenter', 'viewer']),
  referenced_resource_ids: z.array(z.string()).nullable().optional(),
});

const DocumentBase = z.object({
  id: z.string(),
  name: z.string(),
  metadata: Metadata,
  supported_usages: z.array(z.enum(KB_USAGE_MODES)),
  access_info: AccessInfo,
  folder_parent_id: z.string().nullable().optional(),
  folder_path: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .nullable()
    .optional(),
});

/** A document as `get` and `update` answer it (`GetKnowledgeBase{Text,File,Url}ResponseModel` with `type`). */
export const KnowledgeBaseDocumentResponse = z.discriminatedUnion('type', [
  DocumentBase.extend({
    type: z.literal('text'),
    extracted_inner_html: z.string(),
    content_format: z.enum(['html', 'markdown']).nullable().optional(),
  }),
  DocumentBase.extend({
    type: z.literal('file'),
    extracted_inner_html: z.string(),
    content_format: z.enum(['html', 'markdown']).nullable().optional(),
    filename: z.string(),
  }),
  DocumentBase.extend({
    type: z.literal('url'),
    url: z.string(),
    extracted_inner_html: z.string(),
    content_format: z.enum(['html', 'markdown']).nullable().optional(),
  }),
]);
export type KnowledgeBaseDocumentResponse = z.infer<typeof KnowledgeBaseDocumentResponse>;

const SummaryBase = DocumentBase.extend({ dependent_agents: z.array(KbDependentAgent) });

/** A document as the list and the search answer it (`GetKnowledgeBaseSummary…ResponseModel` with `type`). */
export const KnowledgeBaseDocumentSummary = z.discriminatedUnion('type', [
  SummaryBase.extend({ type: z.literal('text') }),
  SummaryBase.extend({ type: z.literal('file') }),
  SummaryBase.extend({ type: z.literal('url'), url: z.string() }),
]);
export type KnowledgeBaseDocumentSummary = z.infer<typeof KnowledgeBaseDocumentSummary>;

/** One value or several of a repeated query parameter (`types=file&types=url`). */
const typesQuery = z
  .union([z.enum(KB_DOCUMENT_TYPES), z.array(z.enum(KB_DOCUMENT_TYPES)).max(4)])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));
const trueFalse = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

export const ListKnowledgeBaseQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(100).default(30),
  /** Documents whose name holds this. */
  search: z.string().max(200).optional(),
  show_only_owned_documents: trueFalse,
  created_by_user_id: z.string().max(100).optional(),
  types: typesQuery,
  /** Folders are not kept: any folder holds no document. */
  parent_folder_id: z.string().max(100).optional(),
  ancestor_folder_id: z.string().max(100).optional(),
  folders_first: trueFalse,
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
  sort_by: z.enum(KB_SORT_BY).default('created_at'),
  /** The `next_cursor` of the page before. */
  cursor: z.string().max(200).optional(),
});
export type ListKnowledgeBaseQuery = z.infer<typeof ListKnowledgeBaseQuery>;

/** `GetKnowledgeBaseListResponseModel`. */
export const ListKnowledgeBaseResponse = z.object({
  documents: z.array(KnowledgeBaseDocumentSummary),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});

export const SearchKnowledgeBaseQuery = z.object({
  query: z.string().trim().min(1, 'Say what to search for.').max(500, 'At most 500 characters.'),
  page_size: z.coerce.number().int().min(1).max(50).default(10),
  types: typesQuery,
  cursor: z.string().max(200).optional(),
});

/** `KnowledgeBaseContentSearchResponseModel`: the documents whose text matches, best first. */
export const SearchKnowledgeBaseResponse = z.object({
  results: z.array(
    z.object({
      document: KnowledgeBaseDocumentSummary,
      search_snippet: z.array(z.object({ value: z.string(), is_hit: z.boolean() })).nullable(),
      score: z.number(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

export const UpdateKnowledgeBaseDocumentRequest = z.object({
  name: DocumentName.optional(),
  /** The new text of a text document (its chunks are made again); other types refuse it. */
  content: z
    .string()
    .min(1, 'The text is empty.')
    .max(KB_MAX_TEXT_CHARS, `At most ${KB_MAX_TEXT_CHARS.toLocaleString('en')} characters.`)
    .optional(),
});

export const DeleteKnowledgeBaseDocumentQuery = z.object({
  /** Delete it even if agents use it (they lose it). Without it, a document in use is refused. */
  force: trueFalse,
});

/** `KnowledgeBaseDocumentChunkResponseModel`. */
export const KnowledgeBaseChunkResponse = z.object({ id: z.string(), name: z.string(), content: z.string() });

export const ListKnowledgeBaseChunksQuery = z.object({
  /** The public API names the embedding model whose chunks to list; the chunks are the same for each here. */
  embedding_model: z.enum(KB_EMBEDDING_MODELS).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(30),
  cursor: z.string().max(200).optional(),
});

export const ListKnowledgeBaseChunksResponse = z.object({
  chunks: z.array(KnowledgeBaseChunkResponse),
  next_cursor: z.string().nullable(),
});

/**
 * `RagDocumentIndexResponseModel`, with what this server's index really is: `search` says it is
 * PostgreSQL full-text search, `embeddings` whether vectors were computed too (only with an embedding model
 * configured, named by `embedding_model`), `message` says the same in a sentence. `model` is the public
 * API's name the caller asked about; the vectors are the configured model's whatever it names.
 */
export const RagDocumentIndexResponse = z.object({
  id: z.string(),
  model: z.enum(KB_EMBEDDING_MODELS),
  status: z.enum(KB_RAG_INDEX_STATUSES),
  progress_percentage: z.number(),
  document_model_index_usage: z.object({ used_bytes: z.number().int() }),
  search: z.literal('full_text'),
  /**
   * The passages' vectors: `computed`, `pending` (being computed), `failed` (`message` says why),
   * `outdated` (indexed before this model was configured: compute the index to add them), `not_configured`.
   */
  embeddings: z.enum(['computed', 'pending', 'failed', 'outdated', 'not_configured']),
  /** The configured embedding model (LLM_EMBEDDING_MODEL), or null. */
  embedding_model: z.string().nullable().optional(),
  message: z.string(),
});
export type RagDocumentIndexResponse = z.infer<typeof RagDocumentIndexResponse>;

export const ComputeRagIndexRequest = z.object({ model: z.enum(KB_EMBEDDING_MODELS) });

export const RagDocumentIndexesResponse = z.object({ indexes: z.array(RagDocumentIndexResponse) });

export const RagIndexBatchRequest = z.object({
  items: z
    .array(
      z.object({
        document_id: z.string().min(1).max(100),
        create_if_missing: z.boolean(),
        model: z.enum(KB_EMBEDDING_MODELS),
      }),
    )
    .min(1, 'Name at least one document.')
    .max(100, 'At most 100 documents at once.'),
});

export const RagIndexBatchResponse = z.record(
  z.string(),
  z.union([
    z.object({ status: z.literal('success'), data: RagDocumentIndexResponse }),
    z.object({
      status: z.literal('failure'),
      error_code: z.number().int(),
      error_status: z.string(),
      error_message: z.string(),
    }),
  ]),
);

/** `RagIndexOverviewResponseModel`, with this server's own note on what it indexes. */
export const RagIndexOverviewResponse = z.object({
  total_used_bytes: z.number().int(),
  total_max_bytes: z.number().int(),
  models: z.array(z.object({ model: z.enum(KB_EMBEDDING_MODELS), used_bytes: z.number().int() })),
  search: z.literal('full_text'),
  /** `computed` when an embedding model is configured (documents get vectors), else `not_configured`. */
  embeddings: z.enum(['computed', 'not_configured']),
  embedding_model: z.string().nullable().optional(),
  message: z.string(),
});

const docParams = z.object({ documentation_id: z.string().min(1).max(100) });
const tags = ['knowledge-base'] as const;

export const createKnowledgeBaseTextRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/knowledge-base/text',
  summary: 'Add a document to the knowledge base from text',
  tags,
  body: CreateTextDocumentRequest,
  response: AddKnowledgeBaseResponse,
});

export const createKnowledgeBaseFileRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/knowledge-base/file',
  summary: 'Add a document from a file (multipart: file, name; pdf, docx, txt, html, md or epub)',
  tags,
  response: AddKnowledgeBaseResponse,
});

export const createKnowledgeBaseUrlRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/knowledge-base/url',
  summary: 'Add a document from a web page',
  tags,
  body: CreateUrlDocumentRequest,
  response: AddKnowledgeBaseResponse,
});

export const listKnowledgeBaseRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base',
  summary: 'The knowledge base’s documents, a page at a time',
  tags,
  query: ListKnowledgeBaseQuery,
  response: ListKnowledgeBaseResponse,
});

export const searchKnowledgeBaseRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/search',
  summary: 'The documents whose text matches a query, best first',
  tags,
  query: SearchKnowledgeBaseQuery,
  response: SearchKnowledgeBaseResponse,
});

export const getKnowledgeBaseDocumentRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id',
  summary: 'One document with its extracted text',
  tags,
  params: docParams,
  query: z.object({ agent_id: z.string().max(100).optional() }),
  response: KnowledgeBaseDocumentResponse,
});

export const updateKnowledgeBaseDocumentRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/knowledge-base/:documentation_id',
  summary: 'Rename a document (or replace a text document’s text)',
  tags,
  params: docParams,
  body: UpdateKnowledgeBaseDocumentRequest,
  response: KnowledgeBaseDocumentResponse,
});

export const deleteKnowledgeBaseDocumentRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/knowledge-base/:documentation_id',
  summary: 'Delete a document (force=true even if agents use it)',
  tags,
  params: docParams,
  query: DeleteKnowledgeBaseDocumentQuery,
  response: z.object({}),
});

export const getKnowledgeBaseContentRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id/content',
  summary: 'The extracted content of a document (HTML)',
  tags,
  params: docParams,
  response: z.string().meta({ description: 'text/html' }),
});

export const getKnowledgeBaseDependentAgentsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id/dependent-agents',
  summary: 'The agents that use a document',
  tags,
  params: docParams,
  query: z.object({
    page_size: z.coerce.number().int().min(1).max(100).default(30),
    cursor: z.string().max(200).optional(),
  }),
  response: z.object({
    agents: z.array(KbDependentAgent),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const getKnowledgeBaseChunkRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id/chunk/:chunk_id',
  summary: 'One chunk of a document',
  tags,
  params: docParams.extend({ chunk_id: z.string().min(1).max(100) }),
  query: z.object({ embedding_model: z.enum(KB_EMBEDDING_MODELS).optional() }),
  response: KnowledgeBaseChunkResponse,
});

export const listKnowledgeBaseChunksRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id/chunks',
  summary: 'A document’s chunks in order, a page at a time',
  tags,
  params: docParams,
  query: ListKnowledgeBaseChunksQuery,
  response: ListKnowledgeBaseChunksResponse,
});

export const computeRagIndexRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/knowledge-base/:documentation_id/rag-index',
  summary: 'Index a document for retrieval (full-text; vectors only with an embedding model)',
  tags,
  params: docParams,
  body: ComputeRagIndexRequest,
  response: RagDocumentIndexResponse,
});

export const getDocumentRagIndexesRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/:documentation_id/rag-index',
  summary: 'A document’s retrieval indexes',
  tags,
  params: docParams,
  response: RagDocumentIndexesResponse,
});

export const deleteDocumentRagIndexRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/knowledge-base/:documentation_id/rag-index/:rag_index_id',
  summary: 'Drop a document’s retrieval index (its full-text index stays while the document exists)',
  tags,
  params: docParams.extend({ rag_index_id: z.string().min(1).max(200) }),
  response: RagDocumentIndexResponse,
});

export const ragIndexOverviewRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/knowledge-base/rag-index',
  summary: 'How much the workspace’s retrieval indexes hold',
  tags,
  response: RagIndexOverviewResponse,
});

export const ragIndexBatchRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/knowledge-base/rag-index',
  summary: 'Index several documents for retrieval',
  tags,
  body: RagIndexBatchRequest,
  response: RagIndexBatchResponse,
});
