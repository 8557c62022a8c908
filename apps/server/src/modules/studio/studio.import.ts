import fs from 'node:fs/promises';
import path from 'node:path';
import {
  STUDIO_MAX_BLOCK_CHARS,
  STUDIO_MAX_BLOCKS_PER_CHAPTER,
  STUDIO_MAX_CHAPTERS,
  type StudioBlockSubType,
  StudioContentJson,
} from '@parla/contracts';
import { AppError, invalid } from '../../platform/errors';
import { withScratchDir } from '../../platform/scratch-dirs';
import { type Block, extractFile, fileTypeOf } from '../knowledge-base';
import { downloadSourceUrl, type SourceUrlPolicy } from '../speech-to-text';

/*
 * A project's content from what it is made of (issue 30 item 2): a document read offline by the knowledge
 * base's reader (txt, md, html, epub, pdf, docx; its archive limits — entries and unpacked bytes — stop a
 * zip bomb, and scripts and styles of HTML are never text), a web page fetched under the operator's URL
 * policy (speech to text's `downloadSourceUrl`: allowed hosts, no private addresses, redirects checked,
 * a size and a time limit), or the public API's content JSON. Headings become h1–h3 blocks; an EPUB gives
 * one chapter per spine item with text, markdown one per `#` heading, anything else one chapter.
 */

/** A node of an imported block: its text, and its voice when the content named one. */
export interface ImportedNode {
  text: string;
  voiceId: string | null;
}
export interface ImportedBlock {
  subType: StudioBlockSubType;
  nodes: ImportedNode[];
}
export interface ImportedChapter {
  name: string;
  blocks: ImportedBlock[];
}
export interface ImportedContent {
  chapters: ImportedChapter[];
  title: string | undefined;
}

const subTypeOf = (kind: Block['kind']): StudioBlockSubType =>
  kind === 'h1' ? 'h1' : kind === 'h2' ? 'h2' : /^h[3-6]$/.test(kind) ? 'h3' : 'p';

/** A paragraph longer than a block may be, cut at sentence ends (else at a space) into several. */
export function splitLongText(text: string, max = STUDIO_MAX_BLOCK_CHARS): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
    const space = window.lastIndexOf(' ');
    const cut = sentence > max / 2 ? sentence + 1 : space > max / 2 ? space : max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

function blocksOf(blocks: Block[]): ImportedBlock[] {
  return blocks.flatMap((block) =>
    splitLongText(block.text).map((text) => ({
      subType: subTypeOf(block.kind),
      nodes: [{ text, voiceId: null }],
    })),
  );
}

/** The chapter's name: its first heading, else "Chapter n". */
function chapterOf(blocks: ImportedBlock[], index: number): ImportedChapter {
  const heading = blocks.find((b) => b.subType !== 'p')?.nodes[0]?.text;
  return { name: (heading ?? `Chapter ${index + 1}`).slice(0, 255), blocks };
}

/** Markdown's paragraphs: blank lines end one, and a heading line is one of its own. */
function markdownParagraphs(markdown: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const end = () => {
    if (current.length > 0) paragraphs.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (!line.trim()) end();
    else if (/^\s{0,3}#{1,6}\s/.test(line)) {
      end();
      paragraphs.push(line);
    } else current.push(line);
  }
  end();
  return paragraphs;
}

/** Markdown: `#` headings start chapters (and are their h1 block), `##`/`###` are h2/h3 blocks. */
export function chaptersFromMarkdown(markdown: string): ImportedChapter[] {
  const chapters: ImportedBlock[][] = [[]];
  for (const raw of markdownParagraphs(markdown)) {
    const heading = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(raw.trim());
    const level = heading?.[1]?.length ?? 0;
    const subType: StudioBlockSubType = level === 1 ? 'h1' : level === 2 ? 'h2' : level >= 3 ? 'h3' : 'p';
    // Cut first, then strip the inline marks of each part (at most STUDIO_MAX_BLOCK_CHARS): the marks'
    // patterns are bounded, so a paragraph of megabytes costs time in proportion to its length (an
    // unbounded `(\*|_)(.*?)\1` scanned to the line's end from every unclosed mark: 60,000 characters of
    // " _x" took 0.9 s, growing with the square of the length).
    const parts = splitLongText(
      (heading ? (heading[2] ?? '') : raw).replace(/^\s{0,3}>\s?/gm, '').replace(/\s+/g, ' '),
    )
      .map(stripInlineMarkdown)
      .filter((part) => part.length > 0);
    if (parts.length === 0) continue;
    if (level === 1 && (chapters.at(-1)?.length ?? 0) > 0) chapters.push([]);
    for (const part of parts) chapters.at(-1)?.push({ subType, nodes: [{ text: part, voiceId: null }] });
  }
  return chapters.filter((c) => c.length > 0).map(chapterOf);
}

/** A line of markdown as it is read aloud: images and links by their text, emphasis and code marks gone. */
function stripInlineMarkdown(text: string): string {
  return text
    .replace(/```[^\s]*/g, '')
    .replace(/!\[([^\]]{0,200})\]\([^)\s]{0,500}(?:\s[^)]{0,300})?\)/g, '$1')
    .replace(/\[([^\]]{1,200})\]\([^)\s]{0,500}(?:\s[^)]{0,300})?\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:[^\n]{0,300}?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A document's chapters (the reader's errors are `document_unreadable`, 400). */
export async function chaptersFromDocument(
  bytes: Uint8Array,
  filename: string,
  mimetype: string,
): Promise<ImportedContent> {
  const type = fileTypeOf(filename, mimetype);
  if (!type)
    throw new AppError(
      'document_unreadable',
      'The document must be a .txt, .md, .html, .epub, .pdf or .docx file.',
    );
  const extracted = await extractFile(bytes, type);
  if (type === 'md') {
    const chapters = chaptersFromMarkdown(Buffer.from(bytes).toString('utf8'));
    return checked({ chapters, title: extracted.title });
  }
  const sections = extracted.sections ?? [extracted.blocks];
  return checked({
    chapters: sections
      .map((section, i) => chapterOf(blocksOf(section), i))
      .filter((c) => c.blocks.length > 0),
    title: extracted.title,
  });
}

/** The sizes a project may hold, checked on what an import made. */
function checked(content: ImportedContent): ImportedContent {
  if (content.chapters.length === 0) throw new AppError('document_unreadable', 'The document holds no text.');
  if (content.chapters.length > STUDIO_MAX_CHAPTERS)
    throw new AppError(
      'document_unreadable',
      `The document has ${content.chapters.length} chapters; a project holds at most ${STUDIO_MAX_CHAPTERS}.`,
    );
  const long = content.chapters.find((c) => c.blocks.length > STUDIO_MAX_BLOCKS_PER_CHAPTER);
  if (long)
    throw new AppError(
      'document_unreadable',
      `The chapter "${long.name}" has ${long.blocks.length} paragraphs; a chapter holds at most ${STUDIO_MAX_BLOCKS_PER_CHAPTER}.`,
    );
  return content;
}

/** `from_content_json`: the public API's chapters → blocks → tts nodes, validated (422 at the field). */
export function chaptersFromContentJson(raw: string): ImportedChapter[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid('from_content_json', 'from_content_json is not valid JSON.');
  }
  const parsed = StudioContentJson.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(
      'from_content_json',
      `from_content_json: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'not a list of chapters'}`,
    );
  }
  return parsed.data.map((chapter) => ({
    name: chapter.name,
    blocks: chapter.blocks
      .map((block) => ({
        subType: block.sub_type ?? 'p',
        nodes: block.nodes.filter((n) => n.text.trim()).map((n) => ({ text: n.text, voiceId: n.voice_id })),
      }))
      .filter((block) => block.nodes.length > 0),
  }));
}

/** The type of a fetched page from its address's extension, else its first bytes. */
function fetchedName(url: string, bytes: Buffer): string {
  const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  if (ext && ['txt', 'md', 'html', 'htm', 'epub', 'pdf', 'docx'].includes(ext)) return `page.${ext}`;
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'page.pdf';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'page.epub';
  return /<(?:!doctype|html|body|p|div|h1)\b/i.test(bytes.subarray(0, 4096).toString('utf8'))
    ? 'page.html'
    : 'page.txt';
}

/** `from_url`: the page fetched under the operator's policy, then read as a document. */
export async function chaptersFromUrl(
  url: string,
  policy: SourceUrlPolicy,
  signal?: AbortSignal,
): Promise<ImportedContent> {
  return withScratchDir('studio-url-', async (dir) => {
    const file = path.join(dir, 'page');
    const fetched = await downloadSourceUrl(url, file, policy, signal);
    const bytes = await fs.readFile(file);
    return chaptersFromDocument(bytes, fetchedName(fetched.url, bytes), '');
  });
}
