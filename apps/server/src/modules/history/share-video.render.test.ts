import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  audioInputArgs,
  buildFilterGraph,
  escapeFilterValue,
  gradientExpression,
  layoutVideoText,
  previewArgs,
  textWidthEm,
  videoArgs,
} from './share-video.render';
import { shareVideoText } from './share-video.service';

/** The text box is 1120 px wide: a laid-out line is never estimated wider. */
const fits = (line: string, fontSize: number) => textWidthEm(line) * fontSize <= 1120;

describe('layoutVideoText', () => {
  it('draws a short text large, on one line', () => {
    expect(layoutVideoText('Hello there.')).toEqual({ fontSize: 60, lines: ['Hello there.'] });
  });

  it('wraps a longer text at a smaller size, every line within the box', () => {
    const text =
      'Hello there. This is a share video made from the audio of a history item, with a moving spectrum and the text drawn on top.';
    const layout = layoutVideoText(text);
    expect(layout.fontSize).toBeLessThan(60);
    expect(layout.lines.join(' ')).toBe(text);
    for (const line of layout.lines) expect(fits(line, layout.fontSize), line).toBe(true);
  });

  it('keeps paragraphs, and cuts a word longer than a line', () => {
    expect(layoutVideoText('First line.\nSecond line.').lines).toEqual(['First line.', 'Second line.']);
    const long = 'x'.repeat(200);
    const layout = layoutVideoText(long);
    expect(layout.lines.join('')).toBe(long);
    for (const line of layout.lines) expect(fits(line, layout.fontSize)).toBe(true);
  });

  it('cuts a text too long for the box after the last line that fits, with an ellipsis', () => {
    const layout = layoutVideoText('A sentence that keeps going and going. '.repeat(100));
    expect(layout.fontSize).toBe(32);
    expect(layout.lines).toHaveLength(8);
    expect(layout.lines.at(-1)).toMatch(/\S…$/);
    for (const line of layout.lines) expect(fits(line, 32)).toBe(true);
  });

  it('draws nothing for an empty text', () => {
    expect(layoutVideoText('  \n ').lines).toEqual([]);
  });

  it('never lays out more lines than fit, nor a line wider than the box', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'W', ' ', '\n', 'mmmm', '.', '漢', 'word '), maxLength: 400 }),
        (text) => {
          const { fontSize, lines } = layoutVideoText(text);
          expect(lines.length * fontSize * 1.3).toBeLessThanOrEqual(344);
          for (const line of lines) expect(fits(line, fontSize)).toBe(true);
        },
      ),
    );
  });
});

describe('shareVideoText', () => {
  it('takes the tags out only when asked, and draws a dialogue one line per paragraph', () => {
    const item = { text: 'Hello [laughs]   there.', dialogue: null };
    expect(shareVideoText(item, true)).toBe('Hello there.');
    expect(shareVideoText(item, false)).toBe('Hello [laughs] there.');
    const dialogue = {
      text: 'ignored',
      dialogue: [
        { text: '[whispers] Are you there?', voice_id: 'a', voice_name: 'Ann' },
        { text: '[sighs]', voice_id: 'b', voice_name: 'Bo' },
        { text: 'I am.', voice_id: 'b', voice_name: 'Bo' },
      ],
    };
    expect(shareVideoText(dialogue, true)).toBe('Are you there?\nI am.');
    expect(shareVideoText(dialogue, false)).toBe('[whispers] Are you there?\n[sighs]\nI am.');
  });
});

describe('the ffmpeg command', () => {
  it('escapes a file path for a filter graph', () => {
    expect(escapeFilterValue('/tmp/a:b,c.txt')).toBe('/tmp/a\\\\:b\\,c.txt');
    expect(escapeFilterValue('/tmp/plain/line-0.txt')).toBe('/tmp/plain/line-0.txt');
  });

  it('tells ffmpeg the layout of raw audio, and lets it probe the rest', () => {
    expect(audioInputArgs('pcm_16000')).toEqual(['-f', 's16le', '-ar', '16000', '-ac', '1']);
    expect(audioInputArgs('ulaw_8000')).toEqual(['-f', 'mulaw', '-ar', '8000', '-ac', '1']);
    expect(audioInputArgs('alaw_8000')).toEqual(['-f', 'alaw', '-ar', '8000', '-ac', '1']);
    expect(audioInputArgs('mp3_44100_128')).toEqual([]);
    expect(audioInputArgs('wav_22050')).toEqual([]);
    expect(audioInputArgs('something_else')).toEqual([]);
  });

  it('makes an H.264 + AAC mp4 in yuv420p that starts playing before it has all arrived', () => {
    const args = videoArgs('/w/audio', 'mp3_44100_128', 'GRAPH', '/w/video.mp4').join(' ');
    for (const part of [
      '-c:v libx264',
      '-pix_fmt yuv420p',
      '-c:a aac',
      '-movflags +faststart',
      '-shortest',
      '-filter_complex GRAPH',
      '-map [v] -map 0:a',
    ])
      expect(args).toContain(part);
    expect(args.endsWith('/w/video.mp4')).toBe(true);
  });

  it('previews one frame as a PNG, seeking into the audio', () => {
    const args = previewArgs('/w/audio', 'pcm_16000', 'GRAPH', 2.5, '/w/p.png').join(' ');
    // Half a second decoded before the frame: the spectrum has a window of sound by then.
    expect(args).toContain('-f s16le -ar 16000 -ac 1 -ss 2.000 -i /w/audio');
    expect(args).toContain('-ss 0.500 -frames:v 1 -c:v png');
    expect(previewArgs('/w/audio', 'mp3_44100_128', 'G', 0.2, '/w/p.png').join(' ')).toContain(
      '-ss 0.000 -i /w/audio -filter_complex G;[v]format=rgb24[still] -map [still] -ss 0.200',
    );
  });

  it('draws the theme: one colour for light and dark, a gradient for colour; one drawtext per line', () => {
    const plan = {
      layout: { fontSize: 44, lines: ['one', 'two'] },
      lineFiles: ['/w/line-0.txt', '/w/line-1.txt'],
      footerFile: '/w/footer.txt',
    };
    const dark = buildFilterGraph({ ...plan, theme: 'dark' });
    expect(dark).toContain('color=c=0x18181b:s=1280x720');
    expect(dark.match(/drawtext=/g)).toHaveLength(3);
    expect(dark).toContain('textfile=/w/line-1.txt:expansion=none:fontsize=44');
    expect(buildFilterGraph({ ...plan, theme: 'light' })).toContain('color=c=0xffffff:s=1280x720');
    expect(buildFilterGraph({ ...plan, theme: 'colour' })).toMatch(/geq=r='.*':g='.*':b='.*'/);
    expect(buildFilterGraph({ ...plan, theme: 'dark', padAudio: true })).toContain('apad');
  });

  it('builds a gradient that starts at the first stop and ends at the last', () => {
    const at = (expression: string, t: number) =>
      Function(
        'lt',
        'iff',
        `return ${expression.replaceAll('(X/W*0.7+Y/H*0.3)', `(${t})`).replaceAll('if(', 'iff(')};`,
      )(
        (a: number, b: number) => a < b,
        (c: boolean, a: number, b: number) => (c ? a : b),
      ) as number;
    const expression = gradientExpression([109, 219, 245]);
    expect(at(expression, 0)).toBeCloseTo(109);
    expect(at(expression, 0.5)).toBeCloseTo(219);
    expect(at(expression, 1)).toBeCloseTo(245);
    expect(at(expression, 0.25)).toBeCloseTo(164);
    expect(gradientExpression([7])).toBe('7');
  });
});
