import { KB_FILE_TYPES, type KbFileType } from '@parla/contracts';
import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import { extractText, getDocumentProxy } from 'unpdf';
import { AppError } from '../../platform/errors';
import { paragraphsOf } from './kb-chunking';

/*
 * The text of a knowledge-base document (issue 28 item 3), from what it was made of: plain text, markdown,
 * HTML, PDF (unpdf: PDF.js built to run without a browser), DOCX and EPUB (zip archives of XML and XHTML,
 * opened with fflate and read with htmlparser2). Each gives blocks — headings, paragraphs, list items —
 * from which come the HTML the content call answers and the plain text the chunks are cut from. A file
 * that is not what its name says, is damaged or holds no text is refused with `document_unreadable`.
 */

export interface Block {
  kind: 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'p' | 'li' | 'pre';
  text: string;
}

export interface Extracted {
  /** `extracted_inner_html` (the markdown itself for a .md file). */
  html: string;
  format: 'html' | 'markdown';
  /** The plain text: paragraphs separated by blank lines. */
  text: string;
  /** A title found in the document (HTML <title>, DOCX or EPUB metadata), for its default name. */
  title: string | undefined;
  /** What it was read as. */
  sourceFormat: KbFileType | 'text';
  /** The document's blocks in order (Studio builds its chapters and headings from them). */
  blocks: Block[];
  /** An EPUB's blocks per spine item that has text (Studio: one chapter each). */
  sections?: Block[][];
}

/** Most bytes read out of a DOCX or EPUB archive in all (a small zip can unpack to gigabytes). */
const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 5000;

const unreadable = (message: string, cause?: unknown) =>
  new AppError('document_unreadable', message, { cause });

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The blocks as simple HTML: headings, paragraphs, lists, preformatted text. */
export function blocksToHtml(blocks: Block[]): string {
  let html = '';
  let inList = false;
  for (const block of blocks) {
    if (block.kind === 'li' && !inList) html += '<ul>';
    if (block.kind !== 'li' && inList) html += '</ul>';
    inList = block.kind === 'li';
    html += `<${block.kind}>${escapeHtml(block.text)}</${block.kind}>`;
  }
  return inList ? `${html}</ul>` : html;
}

export function blocksToText(blocks: Block[]): string {
  return blocks.map((b) => (b.kind === 'li' ? `- ${b.text}` : b.text)).join('\n\n');
}

function fromBlocks(blocks: Block[], sourceFormat: Extracted['sourceFormat'], title?: string): Extracted {
  const text = blocksToText(blocks);
  if (!/[\p{L}\p{N}]/u.test(text)) throw unreadable(noTextMessage(sourceFormat));
  return {
    html: blocksToHtml(blocks),
    format: 'html',
    text,
    title: title?.trim() || undefined,
    sourceFormat,
    blocks,
  };
}

function noTextMessage(format: Extracted['sourceFormat']): string {
  return format === 'pdf'
    ? 'The PDF has no text to read (a scanned PDF holds pictures of pages, which this server does not read).'
    : 'The document holds no text.';
}

/** A text document (`POST …/text`): its paragraphs. */
export function extractPlainText(text: string, sourceFormat: 'text' | 'txt' = 'text'): Extracted {
  return fromBlocks(
    paragraphsOf(text).map((p) => ({ kind: 'p', text: p })),
    sourceFormat,
  );
}

/** Bytes that must be UTF-8 text (a BOM is dropped); binary or another encoding is refused. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw unreadable(`The ${what} is not UTF-8 text.`, error);
  }
  if (text.includes('\u0000')) throw unreadable(`The ${what} is not text (it holds binary data).`);
  return text;
}

/** Markdown: kept as written for the content call; its text without the markup for search. */
export function extractMarkdown(markdown: string): Extracted {
  const plain = markdown
    .replace(/```[^\n]*\n/g, '\n')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/^\s*[-*+]\s+/gm, '- ');
  const blocks = paragraphsOf(plain).map((p): Block => ({ kind: 'p', text: p }));
  const extracted = fromBlocks(blocks, 'md');
  return { ...extracted, html: markdown, format: 'markdown' };
}

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'object',
  'canvas',
  'nav',
  'select',
  'button',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'br',
  'hr',
  'figure',
  'figcaption',
  'address',
  'body',
  'form',
  'fieldset',
  'details',
  'summary',
]);

/** The blocks and title of an HTML or XHTML page (scripts, styles and navigation left out). */
export function htmlBlocks(html: string): { blocks: Block[]; title: string | undefined } {
  const blocks: Block[] = [];
  const stack: string[] = [];
  let skipDepth = 0;
  let buffer = '';
  let title = '';
  let inTitle = false;
  const kindOf = (): Block['kind'] => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const tag = stack[i] as string;
      if (/^h[1-6]$/.test(tag) || tag === 'li' || tag === 'pre') return tag as Block['kind'];
    }
    return 'p';
  };
  const flush = () => {
    const text = buffer.replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ kind: kindOf(), text });
    buffer = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        if (SKIPPED.has(name)) skipDepth++;
        if (BLOCKS.has(name)) flush();
        // Cells of a table row stay on one line, apart.
        if (name === 'td' || name === 'th') buffer += ' ';
        stack.push(name);
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (skipDepth === 0) buffer += text;
      },
      onclosetag(name, implied) {
        if (name === 'title') inTitle = false;
        if (BLOCKS.has(name)) flush();
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        // Pop to the matching tag (HTML closes what it left open).
        const at = stack.lastIndexOf(name);
        if (at >= 0) stack.length = at;
        else if (!implied) return;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { blocks, title: title.replace(/\s+/g, ' ').trim() || undefined };
}

export function extractHtml(html: string): Extracted {
  const { blocks, title } = htmlBlocks(html);
  return fromBlocks(blocks, 'html', title);
}

/** The entries of a zip archive that `wanted` names, with the archive's limits checked. */
function unzipEntries(bytes: Uint8Array, wanted: (name: string) => boolean, what: string) {
  let total = 0;
  let count = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        count++;
        if (count > MAX_ZIP_ENTRIES) throw unreadable(`The ${what} holds too many files.`);
        if (!wanted(file.name)) return false;
        total += file.originalSize;
        if (total > MAX_UNZIPPED_BYTES)
          throw unreadable(`The ${what} unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB.`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(`The ${what} is damaged: it could not be unpacked.`, error);
  }
}

const utf8 = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/** Walks XML with htmlparser2 in XML mode (names as written, prefixes kept). */
function walkXml(
  xml: string,
  handlers: {
    open?: (name: string, attributes: Record<string, string>) => void;
    text?: (text: string) => void;
    close?: (name: string) => void;
  },
): void {
  const parser = new Parser(
    {
      onopentag: (name, attributes) => handlers.open?.(name, attributes),
      ontext: (text) => handlers.text?.(text),
      onclosetag: (name) => handlers.close?.(name),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/** The first `dc:title` (or `<title>`) of an XML document. */
function xmlTitle(xml: string | undefined): string | undefined {
  if (!xml) return undefined;
  let title = '';
  let depth = 0;
  let done = false;
  walkXml(xml, {
    open: (name) => {
      if (!done && (name === 'dc:title' || name === 'title')) depth++;
    },
    text: (text) => {
      if (depth > 0) title += text;
    },
    close: (name) => {
      if (depth > 0 && (name === 'dc:title' || name === 'title')) {
        depth--;
        done = true;
      }
    },
  });
  return title.trim() || undefined;
}

/** A Word document: each `w:p` a block, a heading style its level, a numbered paragraph a list item. */
export function extractDocx(bytes: Uint8Array): Extracted {
  const files = unzipEntries(
    bytes,
    (name) => name === 'word/document.xml' || name === 'docProps/core.xml',
    'DOCX file',
  );
  const documentXml = utf8(files['word/document.xml']);
  if (!documentXml) throw unreadable('The file is not a Word document (DOCX): it has no word/document.xml.');
  const blocks: Block[] = [];
  let text = '';
  let kind: Block['kind'] = 'p';
  let inText = false;
  walkXml(documentXml, {
    open: (name, attributes) => {
      if (name === 'w:p') {
        text = '';
        kind = 'p';
      } else if (name === 'w:pStyle') {
        const level = /^(?:heading|berschrift|titre)\s*(\d)$/i.exec(attributes['w:val'] ?? '');
        if (level) kind = `h${Math.min(6, Number(level[1]))}` as Block['kind'];
        else if (/^title$/i.test(attributes['w:val'] ?? '')) kind = 'h1';
      } else if (name === 'w:numPr') kind = kind === 'p' ? 'li' : kind;
      else if (name === 'w:t') inText = true;
      else if (name === 'w:tab' || name === 'w:br' || name === 'w:cr') text += ' ';
    },
    text: (value) => {
      if (inText) text += value;
    },
    close: (name) => {
      if (name === 'w:t') inText = false;
      else if (name === 'w:p') {
        const clean = text.replace(/\s+/g, ' ').trim();
        if (clean) blocks.push({ kind, text: clean });
      }
    },
  });
  return fromBlocks(blocks, 'docx', xmlTitle(utf8(files['docProps/core.xml'])));
}

/** Resolves `href` against the folder of `base` inside an archive. */
function archivePath(base: string, href: string): string {
  const parts = base.split('/').slice(0, -1);
  for (const part of decodeURIComponent(href.split('#')[0] ?? '').split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** An EPUB: its package file found through META-INF/container.xml, its chapters read in spine order. */
export function extractEpub(bytes: Uint8Array): Extracted {
  const meta = unzipEntries(
    bytes,
    (name) => name === 'META-INF/container.xml' || name.endsWith('.opf'),
    'EPUB file',
  );
  let opfPath: string | undefined;
  walkXml(utf8(meta['META-INF/container.xml']) ?? '', {
    open: (name, attributes) => {
      if (name === 'rootfile' && !opfPath) opfPath = attributes['full-path'];
    },
  });
  const opf = opfPath ? utf8(meta[opfPath]) : undefined;
  if (!opfPath || !opf) throw unreadable('The file is not an EPUB: it has no package document.');
  const manifest = new Map<string, string>();
  const spine: string[] = [];
  walkXml(opf, {
    open: (name, attributes) => {
      const local = name.replace(/^.*:/, '');
      if (local === 'item' && attributes.id && attributes.href) manifest.set(attributes.id, attributes.href);
      if (local === 'itemref' && attributes.idref) spine.push(attributes.idref);
    },
  });
  const chapters = spine
    .map((id) => manifest.get(id))
    .filter((href): href is string => Boolean(href))
    .map((href) => archivePath(opfPath as string, href));
  const wanted = new Set(chapters);
  const files = unzipEntries(bytes, (name) => wanted.has(name), 'EPUB file');
  const sections = chapters
    .map((path) => {
      const xhtml = utf8(files[path]);
      return xhtml ? htmlBlocks(xhtml).blocks : [];
    })
    .filter((section) => section.length > 0);
  return { ...fromBlocks(sections.flat(), 'epub', xmlTitle(opf)), sections };
}

/** A PDF's text, page by page; lines joined into paragraphs, words hyphenated at a line end mended. */
export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  let pages: string[];
  try {
    // A copy: PDF.js takes the buffer over (it is detached afterwards).
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      pages = (await extractText(pdf, { mergePages: false })).text;
    } finally {
      // The document's worker-side state (fonts, pages) goes with its loading task.
      await pdf.loadingTask.destroy();
    }
  } catch (error) {
    const name = (error as { name?: string }).name ?? '';
    if (name === 'PasswordException') throw unreadable('The PDF is protected by a password.', error);
    throw unreadable('The PDF is damaged: it could not be read.', error);
  }
  const blocks = pages.flatMap((page) =>
    page
      .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
      .split(/\n\s*\n/)
      .map((p): Block => ({ kind: 'p', text: p.replace(/\s+/g, ' ').trim() }))
      .filter((b) => b.text),
  );
  return fromBlocks(blocks, 'pdf');
}

/** The file type of an upload, from its name's extension, else its content type; undefined if neither fits. */
export function fileTypeOf(filename: string, mimetype: string): KbFileType | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension && extension in KB_FILE_TYPES) return extension as KbFileType;
  if (extension) return undefined;
  const type = mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  const match = Object.entries(KB_FILE_TYPES).find(([, types]) =>
    (types as readonly string[]).includes(type),
  );
  return match?.[0] as KbFileType | undefined;
}

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
const isPdf = (b: Uint8Array) => Buffer.from(b.subarray(0, 1024)).includes('%PDF-');

/** The extracted content of a file of a type already checked to be one of KB_FILE_TYPES. */
export async function extractFile(bytes: Uint8Array, type: KbFileType): Promise<Extracted> {
  switch (type) {
    case 'pdf':
      if (!isPdf(bytes)) throw unreadable('The file is not a PDF (it does not start as one).');
      return extractPdf(bytes);
    case 'docx':
      if (!isZip(bytes)) throw unreadable('The file is not a Word document (DOCX is a zip archive).');
      return extractDocx(bytes);
    case 'epub':
      if (!isZip(bytes)) throw unreadable('The file is not an EPUB (EPUB is a zip archive).');
      return extractEpub(bytes);
    case 'html':
    case 'htm':
      return { ...extractHtml(decodeUtf8(bytes, 'HTML file')), sourceFormat: type };
    case 'md':
      return extractMarkdown(decodeUtf8(bytes, 'Markdown file'));
    case 'txt':
      return extractPlainText(decodeUtf8(bytes, 'text file'), 'txt');
  }
}
