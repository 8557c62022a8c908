import { describe, expect, it } from 'vitest';
import { LexiconError, parseLexicon, writeLexicon } from './pls';

const lexicon = (body: string, attributes = 'alphabet="ipa"') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" ${attributes} xml:lang="en-US">\n${body}\n</lexicon>\n`,
  );

const refusal = (bytes: Uint8Array) => {
  try {
    parseLexicon(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(LexiconError);
    return (error as Error).message;
  }
  throw new Error('the lexicon was taken');
};

describe('PLS lexicons (issue 30; research-30 §2)', () => {
  it('reads phonemes in either alphabet, aliases, several graphemes and escaped text', () => {
    const rules = parseLexicon(
      lexicon(`
  <lexeme><grapheme>tomato</grapheme><phoneme>təˈmɑːtoʊ</phoneme></lexeme>
  <lexeme><grapheme>Tomato</grapheme><phoneme alphabet="x-cmu">T AH0 M AA1 T OW0</phoneme></lexeme>
  <lexeme><grapheme>UN</grapheme><grapheme>U.N.</grapheme><alias>United Nations</alias></lexeme>
  <lexeme><grapheme>R&amp;D</grapheme><alias>research &#38; development</alias><meta name="x"/></lexeme>
  <lexeme><grapheme><![CDATA[A<B]]></grapheme><alias>A before B</alias></lexeme>`),
    );
    expect(rules).toEqual([
      { type: 'phoneme', string_to_replace: 'tomato', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa' },
      { type: 'phoneme', string_to_replace: 'Tomato', phoneme: 'T AH0 M AA1 T OW0', alphabet: 'cmu-arpabet' },
      { type: 'alias', string_to_replace: 'UN', alias: 'United Nations' },
      { type: 'alias', string_to_replace: 'U.N.', alias: 'United Nations' },
      { type: 'alias', string_to_replace: 'R&D', alias: 'research & development' },
      { type: 'alias', string_to_replace: 'A<B', alias: 'A before B' },
    ]);
  });

  it('takes the lexicon’s alphabet as the default of its phonemes', () => {
    const rules = parseLexicon(
      lexicon(
        '<lexeme><grapheme>data</grapheme><phoneme>D EY1 T AH0</phoneme></lexeme>',
        'alphabet="cmu-arpabet"',
      ),
    );
    expect(rules[0]).toMatchObject({ alphabet: 'cmu-arpabet', phoneme: 'D EY1 T AH0' });
  });

  it('writes what it reads back (aliases, both alphabets, escaping)', () => {
    const rules = [
      { type: 'alias' as const, string_to_replace: 'R&D', alias: '"research" <and> development' },
      {
        type: 'phoneme' as const,
        string_to_replace: 'tomato',
        phoneme: 'təˈmɑːtoʊ',
        alphabet: 'ipa' as const,
      },
      {
        type: 'phoneme' as const,
        string_to_replace: 'data',
        phoneme: 'D EY1 T AH0',
        alphabet: 'cmu-arpabet' as const,
      },
    ];
    const xml = writeLexicon(rules);
    expect(xml).toContain('<phoneme alphabet="cmu-arpabet">D EY1 T AH0</phoneme>');
    expect(xml).toContain('<grapheme>R&amp;D</grapheme>');
    expect(parseLexicon(Buffer.from(xml))).toEqual(rules);
  });

  it('refuses XXE, billion laughs and undeclared entities before parsing', () => {
    const xxe = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE lexicon [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><lexicon alphabet="ipa"><lexeme><grapheme>x</grapheme><alias>&xxe;</alias></lexeme></lexicon>',
    );
    expect(refusal(xxe)).toMatch(/DOCTYPE or entity declarations, which are not allowed/);
    const laughs = Buffer.from(
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lexicon alphabet="ipa"><lexeme><grapheme>x</grapheme><alias>&lol2;</alias></lexeme></lexicon>`,
    );
    expect(refusal(laughs)).toMatch(/DOCTYPE or entity declarations/);
    expect(refusal(lexicon('<lexeme><grapheme>x</grapheme><alias>&xxe;</alias></lexeme>'))).toMatch(
      /entity reference "&xxe", which XML does not define/,
    );
  });

  it('refuses what is not a PLS lexicon, with a sentence for each', () => {
    expect(refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]))).toMatch(/not UTF-8/);
    expect(refusal(Buffer.from('tomato, təˈmɑːtoʊ\n'))).toMatch(/does not start with XML/);
    expect(refusal(Buffer.from('<html><body>hi</body></html>'))).toMatch(/root element must be <lexicon>/);
    expect(refusal(lexicon('<?php echo 1; ?>'))).toMatch(/processing instruction/);
    expect(refusal(lexicon('<lexeme><grapheme>x</grapheme><script>1</script></lexeme>'))).toMatch(
      /<script> element in <lexeme>, which PLS does not define/,
    );
    expect(refusal(lexicon('<lexeme><grapheme>x</grapheme><alias>y</alias>'))).toMatch(/not closed/);
    expect(refusal(lexicon('<lexeme><alias>y</alias></lexeme>'))).toMatch(/has no <grapheme>/);
    expect(refusal(lexicon('<lexeme><grapheme>x</grapheme></lexeme>'))).toMatch(
      /neither a <phoneme> nor an <alias>/,
    );
    expect(
      refusal(lexicon('<lexeme><grapheme>x</grapheme><phoneme alphabet="x-sampa">t@</phoneme></lexeme>')),
    ).toMatch(/alphabet "x-sampa" of a <phoneme> is not supported/);
    expect(
      refusal(
        lexicon('<lexeme><grapheme>x</grapheme><phoneme>TT AH0</phoneme></lexeme>', 'alphabet="x-cmu"'),
      ),
    ).toMatch(/The lexeme "x": "TT" is not a CMU ARPAbet phone/);
    expect(refusal(lexicon('<lexeme><grapheme>x</grapheme><phoneme>t@!</phoneme></lexeme>'))).toMatch(
      /not IPA/,
    );
    expect(refusal(Buffer.alloc(1024 * 1024 + 1, 32))).toMatch(/at most 1 MB/);
  });

  it('refuses deep nesting at once (the parser’s work grows faster than the file), and characters XML forbids', () => {
    // A review timed 250,000 unclosed elements in <metadata> (750 KB) at 56 s of the event loop.
    const deep = lexicon(`<metadata>${'<a>'.repeat(250_000)}`);
    expect(refusal(deep)).toMatch(/nests its elements more than 16 deep/);
    expect(refusal(lexicon('<lexeme><grapheme>a\u0000b</grapheme><alias>x</alias></lexeme>'))).toMatch(
      /character U\+0000, which XML does not allow/,
    );
    expect(refusal(lexicon('<lexeme><grapheme>a</grapheme><alias>x&#1;y</alias></lexeme>'))).toMatch(
      /character U\+0001, which XML does not allow/,
    );
    expect(
      parseLexicon(lexicon('<lexeme><grapheme>a\tb</grapheme><alias>x\ny</alias></lexeme>')),
    ).toHaveLength(1);
  });

  it('refuses more than a dictionary holds', () => {
    const many = Array.from(
      { length: 1001 },
      (_, i) => `<lexeme><grapheme>w${i}</grapheme><alias>a</alias></lexeme>`,
    );
    expect(refusal(lexicon(many.join('')))).toMatch(/more than 1,000 rules/);
  });
});
