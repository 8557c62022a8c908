import type { KnowledgeBaseDocumentResponse, KnowledgeBaseDocumentSummary } from '@parla/contracts';
import type { DependentAgent } from './knowledge-base.service';
import { HIT_END, HIT_START, type KbDocumentWithCreator } from './knowledge-base.store';
import type { KbChunkRow } from './knowledge-base.tables';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

function base(row: KbDocumentWithCreator, callerId: string) {
  return {
    id: row.id,
    name: row.name,
    metadata: {
      created_at_unix_secs: unix(row.createdAt),
      last_updated_at_unix_secs: unix(row.updatedAt),
      size_bytes: row.sizeBytes,
    },
    // Every document may be given to an agent whole (prompt) or searched each turn (auto, the default).
    supported_usages: ['prompt', 'auto'] as ('prompt' | 'auto')[],
    access_info: {
      is_creator: row.createdBy === callerId,
      creator_name: row.creatorName,
      creator_email: row.creatorEmail,
      // The workspace's members share its knowledge base: the maker is its admin, the others edit it.
      role: row.createdBy === callerId ? ('admin' as const) : ('editor' as const),
    },
    folder_parent_id: null,
    folder_path: [],
  };
}

/** A document as `get` and `update` answer it. */
export function toDocumentResponse(
  row: KbDocumentWithCreator,
  callerId: string,
): KnowledgeBaseDocumentResponse {
  const content = {
    extracted_inner_html: row.contentHtml,
    content_format: row.contentFormat,
  };
  if (row.type === 'file')
    return { ...base(row, callerId), type: 'file', ...content, filename: row.filename ?? '' };
  if (row.type === 'url') return { ...base(row, callerId), type: 'url', url: row.url ?? '', ...content };
  return { ...base(row, callerId), type: 'text', ...content };
}

/** A document as the list and the search answer it, with the agents that use it. */
export function toDocumentSummary(
  row: KbDocumentWithCreator,
  callerId: string,
  agents: DependentAgent[],
): KnowledgeBaseDocumentSummary {
  const dependent_agents = agents.map((a) => ({
    type: 'available' as const,
    id: a.id,
    name: a.name,
    created_at_unix_secs: unix(a.createdAt),
    access_level: 'editor' as const,
  }));
  if (row.type === 'url')
    return { ...base(row, callerId), type: 'url', url: row.url ?? '', dependent_agents };
  return { ...base(row, callerId), type: row.type, dependent_agents };
}

export function toChunkResponse(chunk: KbChunkRow, documentName: string) {
  return { id: chunk.id, name: `${documentName} (part ${chunk.position + 1})`, content: chunk.content };
}

/** ts_headline's text, its hits between HIT_START and HIT_END, as the public API's snippet segments. */
export function toSnippet(headline: string | undefined): { value: string; is_hit: boolean }[] | null {
  if (!headline) return null;
  const segments: { value: string; is_hit: boolean }[] = [];
  for (const [i, part] of headline.split(new RegExp(`[${HIT_START}${HIT_END}]`)).entries()) {
    if (part) segments.push({ value: part, is_hit: i % 2 === 1 });
  }
  return segments;
}
