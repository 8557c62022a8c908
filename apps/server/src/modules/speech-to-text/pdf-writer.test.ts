import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../test/pdf-text';
import { reportPdfFontProblem, toWinAnsi, wrapRuns, writePdf } from './pdf-writer';

const latin1 = (bytes: number[]) => Buffer.from(bytes).toString('latin1');

describe('toWinAnsi', () => {
  it('keeps what WinAnsi has, at its Windows-1252 byte', () => {
    expect(toWinAnsi('Café Über')).toEqual([...Buffer.from('Café Über', 'latin1')]);
    expect(toWinAnsi('€ “quotes” – —')).toEqual([
      0x80,
      32,
      0x93,
      ...Buffer.from('quotes'),
      0x94,
      32,
      0x96,
      32,
      0x97,
    ]);
  });

  it('transliterates what decomposes or has a near letter, and prints the rest as "?"', () => {
    expect(latin1(toWinAnsi('Łódź ő ą ﬁne −1'))).toBe('Lódz o a fine -1');
    expect(latin1(toWinAnsi('日本 🎉 Ωmega'))).toBe('?? ? ?mega');
  });

  it('turns other spaces into a space and drops zero-width characters', () => {
    expect(latin1(toWinAnsi('a\u2003b\u200bc\ufeff'))).toBe('a bc');
  });
});

describe('wrapRuns', () => {
  const width = (line: { text: string }[]) => line.reduce((sum, piece) => sum + piece.text.length, 0);

  it('wraps at spaces within the width, keeping every character and each run’s font', () => {
    const runs = [
      { font: 'F1' as const, grey: true, text: '[00:00:01] ' },
      { font: 'F2' as const, grey: false, text: 'Alice: ' },
      { font: 'F1' as const, grey: false, text: 'one two three four five six seven eight nine ten' },
    ];
    // 11 pt Helvetica: "one two three " is about 70 points.
    const lines = wrapRuns(runs, 11, 110);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]?.[0]).toMatchObject({ font: 'F1', grey: true });
    expect(lines[0]?.[1]).toMatchObject({ font: 'F2', grey: false });
    const joined = lines.map((line) => line.map((piece) => piece.text).join('')).join('');
    expect(joined).toBe(runs.map((run) => run.text).join(''));
    expect(lines.every((line) => width(line) > 0)).toBe(true);
  });

  it('cuts a word wider than the line', () => {
    const lines = wrapRuns([{ font: 'F1', grey: false, text: 'W'.repeat(50) }], 10, 100);
    // W is 944/1000 em: ten of them at 10 pt fill 94.4 points.
    expect(lines.map((line) => width(line))).toEqual([10, 10, 10, 10, 10]);
  });
});

describe('without the DejaVu fonts', () => {
  const document = {
    title: 'Transcript',
    details: 'English',
    paragraphs: [{ time: '00:00:01', speaker: 'Alice', text: 'Café Łódź 日本 (x) back\\slash' }],
  };

  it('falls back to Helvetica in WinAnsi: Western European letters, the rest transliterated or "?"', () => {
    const pdf = writePdf(document, null);
    const { pages, fonts } = readPdfText(pdf);
    expect(fonts.F1).toBe(
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    );
    expect(pages[0]).toContain('[00:00:01] Alice: Café Lódz ?? (x) back\\slash');
    // Nothing embedded: a small file.
    expect(pdf.length).toBeLessThan(2000);
  });

  it('says so once, at start, when the font files are missing', () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    reportPdfFontProblem(logger, {
      F1: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
      F2: '/nowhere/Bold.ttf',
    });
    reportPdfFontProblem(logger, { F1: '/nowhere/Regular.ttf', F2: '/nowhere/Bold.ttf' });
    expect(warnings).toEqual([
      'PDF transcript exports fall back to Helvetica (Western European letters only): /nowhere/Bold.ttf not found; install fonts-dejavu-core (scripts/install-system-deps.sh).',
    ]);
  });
});
