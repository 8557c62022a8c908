/*
 * Cutting a document's text into passages for retrieval (issue 28 item 3): about 800 to 1,200 characters,
 * broken at a paragraph where one ends in that range, else at a sentence, else at a word; each passage after
 * the first starts with the last sentence or two of the one before (at most OVERLAP_CHARS), so a fact told
 * across a break is found whole in one of them.
 */

export const CHUNK_MIN_CHARS = 800;
export const CHUNK_MAX_CHARS = 1200;
export const OVERLAP_CHARS = 200;

interface Unit {
  text: string;
  /** The first sentence of a paragraph: a good place to break. */
  startsParagraph: boolean;
}

/** A sentence ends at . ! ? … (with closing quotes or brackets) followed by white space. */
const SENTENCE_END = /(?<=[.!?…]['"’”)\]]*)\s+/u;

/** Splits a paragraph into sentences, and a sentence longer than the maximum at words. */
function sentencesOf(paragraph: string): string[] {
  const out: string[] = [];
  for (const sentence of paragraph.split(SENTENCE_END)) {
    const s = sentence.trim();
    if (!s) continue;
    if (s.length <= CHUNK_MAX_CHARS) {
      out.push(s);
      continue;
    }
    // A run-on "sentence" (a table, a list without stops): cut at the last space before the maximum.
    let rest = s;
    while (rest.length > CHUNK_MAX_CHARS) {
      const space = rest.lastIndexOf(' ', CHUNK_MAX_CHARS);
      const at = space > CHUNK_MAX_CHARS / 2 ? space : CHUNK_MAX_CHARS;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) out.push(rest);
  }
  return out;
}

/** The paragraphs of a text: blank lines separate them; single line breaks inside one are spaces. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** The passages of a text, in order (none for a text without words). */
export function chunkText(text: string): string[] {
  const units: Unit[] = paragraphsOf(text).flatMap((p) =>
    sentencesOf(p).map((s, i) => ({ text: s, startsParagraph: i === 0 })),
  );
  const chunks: string[] = [];
  let current: Unit[] = [];
  /** How many units at the head of `current` are the overlap carried from the chunk before. */
  let carried = 0;
  const length = (list: Unit[]) => list.reduce((n, u, i) => n + u.text.length + (i ? 1 : 0), 0);
  const join = (list: Unit[]) =>
    list.map((u, i) => (i && u.startsParagraph ? `\n\n${u.text}` : i ? ` ${u.text}` : u.text)).join('');

  const emit = () => {
    if (current.length > carried) chunks.push(join(current));
    // The overlap: the last sentences of this chunk that fit in OVERLAP_CHARS.
    const tail: Unit[] = [];
    for (let i = current.length - 1; i >= 0; i--) {
      const unit = current[i] as Unit;
      if (length([unit, ...tail]) > OVERLAP_CHARS) break;
      tail.unshift(unit);
    }
    current = tail;
    carried = current.length;
  };

  for (const unit of units) {
    const size = length(current);
    const withUnit = size + (current.length ? 1 : 0) + unit.text.length;
    const full = withUnit > CHUNK_MAX_CHARS;
    // A paragraph starting once the chunk is long enough: break here rather than mid-paragraph later.
    const niceBreak = unit.startsParagraph && size >= CHUNK_MIN_CHARS;
    if (current.length > carried && (full || niceBreak)) {
      emit();
      // The overlap plus this unit would pass the maximum: start clean.
      if (length(current) + 1 + unit.text.length > CHUNK_MAX_CHARS) {
        current = [];
        carried = 0;
      }
    } else if (full && current.length) {
      // Only carried overlap before a long unit: drop it.
      current = [];
      carried = 0;
    }
    current.push(unit);
  }
  if (current.length > carried) chunks.push(join(current));
  return chunks;
}
