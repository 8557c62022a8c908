import {
  KB_FILE_TYPES,
  KB_MAX_FILE_BYTES,
  KB_MAX_TEXT_CHARS,
  type KbDocumentType,
  type KbFileType,
  type RagDocumentIndexResponse,
} from '@parla/contracts';

/** The extensions a document may be made from (issue 28 item 3: pdf, docx, txt, html, md, epub). */
export const kbFileExtensions = Object.keys(KB_FILE_TYPES) as KbFileType[];

/** The file input's `accept`: the extensions and the content types browsers send for them. */
export const kbFileAccept = [
  ...kbFileExtensions.map((ext) => `.${ext}`),
  ...new Set(Object.values(KB_FILE_TYPES).flat()),
].join(',');

const sizes = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A size in bytes for people: "820 B", "14.2 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${sizes.format(bytes / 1024)} KB`;
  return `${sizes.format(bytes / (1024 * 1024))} MB`;
}

/**
 * Why a file cannot become a document, or null when it may be sent: its extension must be one the server
 * reads and its size at most KB_MAX_FILE_BYTES. The server checks again; this saves a useless upload.
 */
export function kbFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!(kbFileExtensions as string[]).includes(ext))
    return `${file.name} is not a file the knowledge base reads. Choose a PDF, Word (.docx), text, HTML, Markdown or EPUB file.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > KB_MAX_FILE_BYTES)
    return `${file.name} is ${formatBytes(file.size)}; a document file may be at most ${formatBytes(KB_MAX_FILE_BYTES)}.`;
  return null;
}

/** Why an address cannot be read, or null: a full http(s) address. Private hosts are the server's call. */
export function kbUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (!value) return 'Enter the address of the page.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full address, starting with https://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Enter a web address (http or https).';
  return null;
}

/** Why a text cannot become a document, or null. */
export function kbTextProblem(text: string): string | null {
  if (!text.trim()) return 'The text is empty.';
  if (text.length > KB_MAX_TEXT_CHARS)
    return `At most ${KB_MAX_TEXT_CHARS.toLocaleString('en')} characters; this is ${text.length.toLocaleString('en')}.`;
  return null;
}

export const kbTypeLabels: Record<Exclude<KbDocumentType, 'folder'>, string> = {
  file: 'File',
  url: 'Web page',
  text: 'Text',
};

/**
 * The readable text of a document's `extracted_inner_html`, for showing it without rendering HTML that
 * came from a stranger's page: parsed into an inert document (no script runs, nothing loads), then its
 * text with a line break after each block. Markdown (`content_format: 'markdown'`) is already text.
 */
export function extractedText(content: string, format: 'html' | 'markdown' | null | undefined): string {
  if (format === 'markdown') return content.trim();
  const doc = new DOMParser().parseFromString(content, 'text/html');
  for (const element of doc.body.querySelectorAll('script, style, noscript, template')) element.remove();
  for (const element of doc.body.querySelectorAll('br')) element.replaceWith('\n');
  for (const element of doc.body.querySelectorAll(
    'p, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote, pre, section, article',
  ))
    element.append('\n');
  return (doc.body.textContent ?? '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What a document's retrieval index means, said plainly, with its tone. */
export function describeIndex(index: RagDocumentIndexResponse | undefined): {
  label: string;
  tone: 'success' | 'warning' | 'danger' | 'accent' | 'neutral';
} {
  switch (index?.status) {
    case undefined:
      return { label: 'Not indexed', tone: 'neutral' };
    case 'succeeded':
      return { label: 'Indexed', tone: 'success' };
    case 'new':
    case 'created':
    case 'processing':
      return { label: 'Indexing', tone: 'accent' };
    case 'document_too_small':
      return { label: 'Nothing to index', tone: 'warning' };
    case 'rag_limit_exceeded':
      return { label: 'Over the index limit', tone: 'danger' };
    case 'cannot_index_folder':
      return { label: 'Folders are not indexed', tone: 'neutral' };
    case 'failed':
      return { label: 'Indexing failed', tone: 'danger' };
  }
}
