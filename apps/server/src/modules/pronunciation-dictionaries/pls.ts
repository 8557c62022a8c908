import {
  MAX_DICTIONARY_RULES,
  MAX_PLS_BYTES,
  MAX_RULE_STRING_CHARS,
  MAX_RULE_VALUE_CHARS,
  type PhonemeAlphabet,
  type PronunciationRule,
  phonemeProblem,
} from '@parla/contracts';
import { Parser } from 'htmlparser2';

/*
 * PLS lexicons (W3C Pronunciation Lexicon Specification 1.0) in and out (issue 30; research-30 §2).
 * Read with htmlparser2 in XML mode, which never reads a DTD nor expands a declared entity; on top of that
 * anything a DTD could bring is refused before parsing, with a sentence (XXE and "billion laughs" are
 * refused, not merely defused): DOCTYPE, ENTITY, ELEMENT and ATTLIST declarations, entity references
 * other than XML's five and numeric ones, processing instructions but `<?xml …?>`, and elements PLS does
 * not define.
 */

/** Why a lexicon was refused: a sentence for the user (the API's `pronunciation_lexicon_invalid`). */
export class LexiconError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LexiconError';
  }
}

/** The alphabet names of lexicons in the wild, as Parla's: `x-cmu` is the CMU dictionary's ARPAbet. */
function alphabetOf(name: string | undefined, where: string): PhonemeAlphabet {
  const value = (name ?? 'ipa').trim().toLowerCase();
  if (value === 'ipa') return 'ipa';
  if (value === 'x-cmu' || value === 'cmu-arpabet') return 'cmu-arpabet';
  throw new LexiconError(
    `The phoneme alphabet "${value.slice(0, 20)}" of ${where} is not supported: use "ipa" or "cmu-arpabet" (also written "x-cmu").`,
  );
}

/** PLS's elements; `meta`, `metadata` and `example` are read past (metadata may hold any XML). */
const HOLDS_TEXT = new Set(['grapheme', 'phoneme', 'alias']);
/**
 * How deep a lexicon's elements may nest. PLS needs four (lexicon, lexeme, grapheme, and markup inside
 * metadata perhaps a few more); the parser's work grows faster than the nesting (a review timed 250,000
 * unclosed elements, 750 KB, at 56 s of the event loop), so a deeper file is refused at the 17th level.
 */
const MAX_DEPTH = 16;
/** Characters XML 1.0 does not allow (C0 controls but tab, newline and return; U+FFFE, U+FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML forbids are what is looked for.
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const forbiddenCharacter = (text: string) => {
  const found = NOT_XML_CHAR.exec(text)?.[0];
  return found === undefined
    ? undefined
    : `The lexicon has the character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which XML does not allow.`;
};
const SKIPPED = new Set(['meta', 'metadata', 'example']);

/** The local name of an element (`pls:lexeme` → `lexeme`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

const quoted = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

interface Lexeme {
  graphemes: string[];
  aliases: string[];
  phonemes: { text: string; alphabet: PhonemeAlphabet }[];
}

/**
 * The rules of a PLS lexicon, in its order: one per grapheme of each lexeme — an alias rule when the lexeme
 * has an `<alias>`, else a phoneme rule with its first `<phoneme>` (in the phoneme's alphabet, else the
 * lexicon's). Throws LexiconError with a sentence for anything it does not take.
 */
export function parseLexicon(bytes: Uint8Array): PronunciationRule[] {
  if (bytes.byteLength > MAX_PLS_BYTES)
    throw new LexiconError(`A lexicon is at most ${MAX_PLS_BYTES / 1024 / 1024} MB.`);
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LexiconError('The file is not a PLS lexicon: it is not UTF-8 text.');
  }
  xml = xml.replace(/^\uFEFF/, '');
  if (!xml.trimStart().startsWith('<'))
    throw new LexiconError('The file is not a PLS lexicon: it does not start with XML.');
  if (/<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i.test(xml))
    throw new LexiconError(
      'The lexicon has a DOCTYPE or entity declarations, which are not allowed (no DTD is read).',
    );
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-f]{1,6});)([^\s;&<]{0,20})/i.exec(xml);
  if (entity)
    throw new LexiconError(
      `The lexicon uses the entity reference ${quoted(`&${entity[1] ?? ''}`)}, which XML does not define; write &amp; for an ampersand.`,
    );

  const forbidden = forbiddenCharacter(xml);
  if (forbidden) throw new LexiconError(forbidden);

  const rules: PronunciationRule[] = [];
  const stack: string[] = [];
  let problem: LexiconError | undefined;
  let sawLexicon = false;
  let lexiconAlphabet: PhonemeAlphabet = 'ipa';
  let lexeme: Lexeme | undefined;
  let text: { element: string; value: string; alphabet?: PhonemeAlphabet } | undefined;
  let skipping = 0;
  const fail = (message: string) => {
    problem ??= new LexiconError(message);
    parser.pause();
  };

  const closeLexeme = (done: Lexeme) => {
    const [grapheme] = done.graphemes;
    if (grapheme === undefined) return fail('A <lexeme> of the lexicon has no <grapheme>.');
    const alias = done.aliases[0];
    const phoneme = done.phonemes[0];
    if (alias === undefined && phoneme === undefined)
      return fail(`The lexeme ${quoted(grapheme)} has neither a <phoneme> nor an <alias>.`);
    for (const word of done.graphemes) {
      if (rules.length >= MAX_DICTIONARY_RULES)
        return fail(
          `The lexicon has more than ${MAX_DICTIONARY_RULES.toLocaleString('en')} rules, the most a dictionary holds.`,
        );
      if (alias !== undefined) {
        rules.push({ type: 'alias', string_to_replace: word, alias });
      } else if (phoneme) {
        const wrong = phonemeProblem(phoneme.alphabet, phoneme.text);
        if (wrong) return fail(`The lexeme ${quoted(word)}: ${wrong}`);
        rules.push({
          type: 'phoneme',
          string_to_replace: word,
          phoneme: phoneme.text,
          alphabet: phoneme.alphabet,
        });
      }
    }
  };

  const parser = new Parser(
    {
      onprocessinginstruction(name) {
        if (name.toLowerCase() !== '?xml')
          fail(`The lexicon has a processing instruction <${name.slice(0, 20)}…>, which PLS does not use.`);
      },
      onopentag(raw, attributes) {
        const name = local(raw);
        const parent = stack.at(-1);
        stack.push(name);
        if (stack.length > MAX_DEPTH)
          return fail(`The lexicon nests its elements more than ${MAX_DEPTH} deep; PLS needs four.`);
        if (skipping > 0 || SKIPPED.has(name)) {
          skipping += 1;
          return;
        }
        if (parent === undefined) {
          if (name !== 'lexicon' || sawLexicon)
            return fail('The file is not a PLS lexicon: its root element must be <lexicon>.');
          sawLexicon = true;
          try {
            lexiconAlphabet = alphabetOf(attributes.alphabet, 'the lexicon');
          } catch (error) {
            fail((error as Error).message);
          }
          return;
        }
        if (name === 'lexeme' && parent === 'lexicon') {
          lexeme = { graphemes: [], aliases: [], phonemes: [] };
          return;
        }
        if (HOLDS_TEXT.has(name) && parent === 'lexeme') {
          let alphabet: PhonemeAlphabet | undefined;
          if (name === 'phoneme' && attributes.alphabet !== undefined) {
            try {
              alphabet = alphabetOf(attributes.alphabet, 'a <phoneme>');
            } catch (error) {
              return fail((error as Error).message);
            }
          }
          text = { element: name, value: '', ...(alphabet ? { alphabet } : {}) };
          return;
        }
        fail(
          `The lexicon has a <${raw.slice(0, 30)}> element${parent ? ` in <${parent}>` : ''}, which PLS does not define there.`,
        );
      },
      ontext(data) {
        // After its character references are read: &#1; is as forbidden as the character itself.
        const wrong = forbiddenCharacter(data);
        if (wrong) return fail(wrong);
        if (skipping > 0) return;
        if (text) {
          text.value += data;
          if (text.value.length > MAX_RULE_VALUE_CHARS * 2)
            fail(`A <${text.element}> of the lexicon is longer than ${MAX_RULE_VALUE_CHARS} characters.`);
        } else if (data.trim()) {
          fail(`The lexicon has text outside its elements: ${quoted(data.trim())}.`);
        }
      },
      onclosetag(raw, isImplied) {
        const name = local(raw);
        stack.pop();
        // htmlparser2 calls a self-closing tag's close "implied" too; any other implied close is an
        // element left open (a mismatched end tag, or the end of the file).
        if (isImplied) {
          const source = xml.slice(parser.startIndex, parser.endIndex + 1);
          if (!(source.startsWith('<') && !source.startsWith('</') && source.endsWith('/>')))
            return fail(`The lexicon is not well-formed XML: its <${name}> element is not closed.`);
        }
        if (skipping > 0) {
          skipping -= 1;
          return;
        }
        if (text && name === text.element && lexeme) {
          const value = text.value.trim().replace(/\s+/g, ' ');
          const element = text.element;
          const alphabet = text.alphabet ?? lexiconAlphabet;
          text = undefined;
          if (!value) return fail(`A <${element}> of the lexicon is empty.`);
          const limit = element === 'grapheme' ? MAX_RULE_STRING_CHARS : MAX_RULE_VALUE_CHARS;
          if (value.length > limit)
            return fail(`The <${element}> ${quoted(value)} is longer than ${limit} characters.`);
          if (element === 'grapheme') lexeme.graphemes.push(value);
          else if (element === 'alias') lexeme.aliases.push(value);
          else lexeme.phonemes.push({ text: value, alphabet });
          return;
        }
        if (name === 'lexeme' && lexeme) {
          const done = lexeme;
          lexeme = undefined;
          closeLexeme(done);
        }
      },
      onerror(error) {
        fail(`The lexicon is not well-formed XML: ${error.message}`);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(xml);
  if (!problem) parser.end();
  if (problem) throw problem;
  if (!sawLexicon) throw new LexiconError('The file is not a PLS lexicon: it has no <lexicon> element.');
  return rules;
}

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

/**
 * A version's rules as a PLS lexicon: one `<lexeme>` per rule, an alias as `<alias>`, a phoneme rule as
 * `<phoneme alphabet="…">` in its own alphabet. PLS has no way to say a rule's case sensitivity or word
 * boundaries: they are not in the file (decision record 0025 "Pronunciation dictionaries").
 */
export function writeLexicon(rules: readonly PronunciationRule[]): string {
  const lexemes = rules.map((rule) => {
    const body =
      rule.type === 'alias'
        ? `<alias>${escapeXml(rule.alias)}</alias>`
        : `<phoneme alphabet="${rule.alphabet}">${escapeXml(rule.phoneme)}</phoneme>`;
    return `  <lexeme>\n    <grapheme>${escapeXml(rule.string_to_replace)}</grapheme>\n    ${body}\n  </lexeme>\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">\n' +
    lexemes.join('') +
    '</lexicon>\n'
  );
}
