import { describe, expect, it } from 'vitest';
import { chaptersFromContentJson, chaptersFromMarkdown, splitLongText } from './studio.import';
import { blockHash, rulesTouching } from './studio.rules';
import type { StudioBlockRow } from './studio.tables';

describe('Studio import rules', () => {
  it('cuts a paragraph longer than a block at sentence ends, never losing a word', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const text = sentence.repeat(200).trim();
    const parts = splitLongText(text, 1000);
    expect(parts.every((p) => p.length <= 1000 && p.endsWith('.'))).toBe(true);
    expect(parts.join(' ')).toBe(text);
    expect(splitLongText('short')).toEqual(['short']);
  });

  it('makes markdown # headings chapters and ##/### h2/h3 blocks, markup removed', () => {
    const chapters = chaptersFromMarkdown(
      'Preface words.\n\n# One\nFirst **bold** [link](http://x).\n\n## Part\n\nMore.\n# Two\n\n### Deep\nLast.',
    );
    expect(chapters.map((c) => c.name)).toEqual(['Chapter 1', 'One', 'Two']);
    expect(chapters[1]?.blocks.map((b) => [b.subType, b.nodes[0]?.text])).toEqual([
      ['h1', 'One'],
      ['p', 'First bold link.'],
      ['h2', 'Part'],
      ['p', 'More.'],
    ]);
    expect(chapters[2]?.blocks.map((b) => b.subType)).toEqual(['h1', 'h3', 'p']);
  });

  it('reads quotes, images, titled links and emphasis as words; unclosed marks cost time in proportion to the text', () => {
    const [chapter] = chaptersFromMarkdown(
      'Some **bold**, _it_ and `code` with [a link](http://x.y/z "t") and ![pic](a.png).\n\n> quoted\n> more',
    );
    expect(chapter?.blocks.map((b) => b.nodes[0]?.text)).toEqual([
      'Some bold, it and code with a link and pic.',
      'quoted more',
    ]);
    // Unclosed marks on one long line: the patterns were unbounded and scanned to the line's end from every
    // mark (60,000 characters of " _x" took 0.9 s, four times more for twice the text: these 300,000 took
    // over 20 s, past the test's time limit). Bounded, each is a fraction of a second.
    for (const unit of [' _x', '[', '![a](']) {
      const chapters = chaptersFromMarkdown(unit.repeat(Math.ceil(300_000 / unit.length)));
      expect(chapters.flatMap((c) => c.blocks).length).toBeGreaterThan(50);
    }
  });

  it('reads the SDK content JSON and refuses anything else at from_content_json', () => {
    const chapters = chaptersFromContentJson(
      JSON.stringify([
        {
          name: 'A',
          blocks: [
            { sub_type: 'h1', nodes: [{ type: 'tts_node', text: 'Title', voice_id: 'v1' }] },
            { nodes: [{ type: 'tts_node', text: '  ', voice_id: 'v1' }] },
          ],
        },
      ]),
    );
    expect(chapters).toEqual([
      { name: 'A', blocks: [{ subType: 'h1', nodes: [{ text: 'Title', voiceId: 'v1' }] }] },
    ]);
    expect(() => chaptersFromContentJson('{')).toThrow(/not valid JSON/);
    expect(() => chaptersFromContentJson('[{"name":"A","blocks":[{"nodes":[{"type":"x"}]}]}]')).toThrow(
      /from_content_json: 0\.blocks\.0\.nodes\.0/,
    );
  });
});

describe('the block hash (what decides that a block is spoken again)', () => {
  const project = {
    defaultModelId: 'm1',
    applyTextNormalization: 'auto' as const,
    pronunciationDictionaryLocators: [],
  };
  const block = {
    nodes: [{ text: 'Hello.', voice_id: 'v1' }],
    modelId: null,
    voiceSettings: null,
    subType: 'p',
  } as unknown as StudioBlockRow;
  const hash = blockHash(project, block);

  it('changes with the text, the voice, the model, the settings and the dictionaries', () => {
    expect(blockHash(project, { ...block, nodes: [{ text: 'Hello!', voice_id: 'v1' }] })).not.toBe(hash);
    expect(blockHash(project, { ...block, nodes: [{ text: 'Hello.', voice_id: 'v2' }] })).not.toBe(hash);
    expect(blockHash(project, { ...block, modelId: 'm2' })).not.toBe(hash);
    expect(blockHash({ ...project, defaultModelId: 'm2' }, block)).not.toBe(hash);
    expect(blockHash(project, { ...block, voiceSettings: { stability: 0.1 } })).not.toBe(hash);
    const hello = { type: 'alias' as const, string_to_replace: 'hello', alias: 'howdy' };
    expect(blockHash(project, block, [hello])).not.toBe(hash);
    // A different version of the rule (the dictionary changed) is a different hash.
    expect(blockHash(project, block, [{ ...hello, alias: 'hi' }])).not.toBe(
      blockHash(project, block, [hello]),
    );
  });

  it('counts only the rules whose words occur in the block (a changed dictionary re-speaks those blocks)', () => {
    const elsewhere = { type: 'alias' as const, string_to_replace: 'Tomato', alias: 'tomahto' };
    expect(blockHash(project, block, [elsewhere])).toBe(hash);
    // Case and word boundaries are not looked at: a superset of what the pipeline can match.
    expect(
      rulesTouching('Say HELLOS.', [
        { type: 'alias', string_to_replace: 'hello', alias: 'x', case_sensitive: true },
      ]),
    ).toHaveLength(1);
    expect(
      rulesTouching('Say hi.', [{ type: 'alias', string_to_replace: 'hello', alias: 'x' }]),
    ).toHaveLength(0);
  });

  it('finds each rule’s string whatever its case, skips empty strings, and folds case where lower case moves characters', () => {
    const rules = [
      { type: 'alias' as const, string_to_replace: 'hello', alias: 'howdy' },
      { type: 'alias' as const, string_to_replace: '', alias: 'never' },
      { type: 'alias' as const, string_to_replace: 'Tomato', alias: 'tomahto' },
    ];
    expect(rulesTouching('Say HELLO to the tomato.', rules)).toEqual([rules[0], rules[2]]);
    // "İ" is two characters in lower case: the text is searched with case folding instead, same answer.
    expect(rulesTouching('İ say HELLO to the tomato.', rules)).toEqual([rules[0], rules[2]]);
    expect(
      rulesTouching('İSTANBUL', [{ type: 'alias', string_to_replace: 'İstanbul', alias: 'x' }]),
    ).toHaveLength(1);
  });

  it('stays the same for the same content (a block id, its position or its kind do not count)', () => {
    expect(blockHash(project, { ...block, id: 'other', position: 9, subType: 'h1' } as StudioBlockRow)).toBe(
      hash,
    );
  });
});
