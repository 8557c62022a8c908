/**
 * Share videos (history/voices §2, §3): a 1280×720 H.264 + AAC mp4 of an item's audio over its theme's
 * background, with an animated spectrum and the item's text; and a PNG preview, one frame of the same
 * picture. ffmpeg draws everything; it runs in the program host with a time bound, never forked from the
 * server's process.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  describeOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  type ShareVideoTheme,
  shareVideoThemes,
} from '@parla/contracts';
import { type ProgramExit, programHost } from '../../platform/program-host';
import { withScratchDir } from '../../platform/scratch-dirs';

export const VIDEO_WIDTH = 1280;
export const VIDEO_HEIGHT = 720;
export const VIDEO_FPS = 25;

/** The fonts of the text and footer: Debian's fonts-dejavu-core (scripts/install-system-deps.sh installs it). */
export const TEXT_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
export const FOOTER_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** Where the text goes: a centred block in the upper part. */
const TEXT_BOX = { x: 80, y: 48, width: 1120, height: 344 };
/** Where the spectrum goes: mirrored bars in the lower part (each bar BAR_STEP wide, BAR_GAP of it empty). */
const BARS_BOX = { x: 80, y: 428, width: 1120, height: 220 };
const BAR_STEP = 20;
const BAR_GAP = 6;
const FOOTER = { text: 'Made with Parla', size: 22, baseline: 690 };

/** Font sizes tried in order: the largest at which the whole text fits is used. */
const FONT_SIZES = [60, 52, 44, 38, 32] as const;
const SMALLEST_FONT_SIZE = 32;
const LINE_HEIGHT = 1.3;
/** More text than this never fits (8 lines of ~60 characters at the smallest size): the rest is not laid out. */
const LAYOUT_MAX_CHARACTERS = 2000;
const ELLIPSIS = '…';

/**
 * The advance of a character in DejaVu Sans Bold, in em, rounded up from ffmpeg's own measures (lowercase
 * ~0.63 em, capitals ~0.75, digits 0.70, a space 0.35). Characters the font lacks (CJK…) count as 1 em.
 */
function characterWidthEm(c: string): number {
  if (c === ' ') return 0.35;
  if (".,;:'!|ijl".includes(c)) return 0.38;
  if ('frtI()[]"-'.includes(c)) return 0.5;
  if ('mwMW@%'.includes(c)) return 1.06;
  if (/[A-Z]/.test(c)) return 0.79;
  if (/[0-9]/.test(c)) return 0.71;
  if (/[a-z]/.test(c)) return 0.68;
  const code = c.codePointAt(0) ?? 0;
  return code >= 0x1100 ? 1 : 0.72;
}

/** The estimated width of a line of text, in em. */
export function textWidthEm(text: string): number {
  let width = 0;
  for (const c of text) width += characterWidthEm(c);
  return width;
}

/** Greedy word wrap of one paragraph to `maxEm`; a word longer than a line is cut. */
function wrapParagraph(paragraph: string, maxEm: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidthEm(candidate) <= maxEm) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (textWidthEm(rest) > maxEm) {
      let cut = '';
      for (const c of rest) {
        if (textWidthEm(cut + c) > maxEm) break;
        cut += c;
      }
      if (!cut) cut = [...rest][0] ?? '';
      lines.push(cut);
      rest = rest.slice(cut.length);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

/** The text as drawn: a font size and its lines. */
export interface TextLayout {
  fontSize: number;
  lines: string[];
}

/**
 * Lays the text out in the text box: paragraphs (line breaks) kept, words wrapped, at the largest size
 * at which everything fits; text that fits at no size is cut after the last line that fits, with an
 * ellipsis.
 */
export function layoutVideoText(text: string): TextLayout {
  const capped = text.length > LAYOUT_MAX_CHARACTERS;
  const paragraphs = text
    .slice(0, LAYOUT_MAX_CHARACTERS)
    .split(/\r?\n|\r/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const fit = (fontSize: number) => {
    const maxLines = Math.floor(TEXT_BOX.height / (fontSize * LINE_HEIGHT));
    const lines = paragraphs.flatMap((p) => wrapParagraph(p, TEXT_BOX.width / fontSize));
    return { maxLines, lines };
  };
  for (const fontSize of FONT_SIZES) {
    const { maxLines, lines } = fit(fontSize);
    if (lines.length <= maxLines && !capped) return { fontSize, lines };
  }
  const fontSize = SMALLEST_FONT_SIZE;
  const { maxLines, lines } = fit(fontSize);
  const kept = lines.slice(0, maxLines);
  const maxEm = TEXT_BOX.width / fontSize;
  let last = kept.pop() ?? '';
  while (last && textWidthEm(`${last}${ELLIPSIS}`) > maxEm) last = [...last].slice(0, -1).join('');
  kept.push(`${last.replace(/[\s.,;:]+$/, '')}${ELLIPSIS}`);
  return { fontSize, lines: kept };
}

/** `#rrggbb` as ffmpeg writes a colour. */
const ffColour = (hex: string) => `0x${hex.replace(/^#/, '')}`;

/** Where a pixel sits along the gradient, 0..1: mostly left to right, a little top to bottom. */
const GRADIENT_POSITION = '(X/W*0.7+Y/H*0.3)';

/** A geq expression of one channel through the stops (values 0..255), evenly spaced along the gradient. */
export function gradientExpression(values: readonly number[]): string {
  const segments = values.length - 1;
  if (segments < 1) return String(values[0] ?? 0);
  const t = GRADIENT_POSITION;
  const segment = (k: number): string => {
    const from = values[k] ?? 0;
    const to = values[k + 1] ?? from;
    const ramp = `${from}+(${to - from})*(${t}-${k}/${segments})*${segments}`;
    return k === segments - 1 ? ramp : `if(lt(${t},${(k + 1) / segments}),${ramp},${segment(k + 1)})`;
  };
  return segment(0);
}

/**
 * The background source: one colour, or a gradient through the stops. ffmpeg's `gradients` source turns
 * as it plays and ignores its end points on the first frames; this one is computed on a small frame with
 * geq (a few ms a frame) and scaled up smoothly.
 */
function backgroundSource(stops: readonly string[]): string {
  const size = `${VIDEO_WIDTH}x${VIDEO_HEIGHT}`;
  if (stops.length < 2) return `color=c=${ffColour(stops[0] ?? '#000000')}:s=${size}:r=${VIDEO_FPS}`;
  const channel = (at: number) =>
    stops.map((hex) => Number.parseInt(hex.replace(/^#/, '').slice(at, at + 2), 16));
  const [r, g, b] = [0, 2, 4].map((at) => `'${gradientExpression(channel(at))}'`);
  return [
    `color=c=black:s=${VIDEO_WIDTH / 10}x${VIDEO_HEIGHT / 10}:r=${VIDEO_FPS}`,
    'format=rgb24',
    `geq=r=${r}:g=${g}:b=${b}`,
    `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:flags=bicubic`,
  ].join(',');
}

/**
 * A value inside a filter graph: escaped for the filter's option parser, then for the graph's (ffmpeg's
 * two levels of quoting), so a file path with `:` or `,` stays one value.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');
}

/** Everything one picture needs: the theme, the laid-out text and where its lines' files are. */
export interface FramePlan {
  theme: ShareVideoTheme;
  layout: TextLayout;
  /** A UTF-8 file per line of the layout (drawtext reads text from files: no escaping of the text). */
  lineFiles: string[];
  footerFile: string;
  /** Pad the audio with silence, so a frame exists even for a clip shorter than the spectrum's window. */
  padAudio?: boolean;
}

/** The filter graph: background, spectrum bars from input 0's audio, the text and the footer → [v]. */
export function buildFilterGraph(plan: FramePlan): string {
  const style = shareVideoThemes[plan.theme];
  const half = BARS_BOX.width / 2;
  const halfHeight = BARS_BOX.height / 2;
  const bars = half / BAR_STEP;
  const barsSize = `${BARS_BOX.width}x${BARS_BOX.height}`;
  // Spectrum bars: low frequencies in the middle, mirrored left-right and up-down, cut into bars by a comb.
  const spectrum = [
    `[0:a]aformat=channel_layouts=mono,${plan.padAudio ? 'apad=pad_dur=1,' : ''}showfreqs=s=${Math.round(
      bars * 1.3,
    )}x${halfHeight}:mode=bar:ascale=log:fscale=log:win_size=2048:rate=${VIDEO_FPS}:averaging=2:colors=white`,
    `format=gray,crop=${bars}:${halfHeight}:0:0,scale=${half}x${halfHeight}:flags=neighbor,split[right][left0]`,
  ].join(',');
  const graph = [
    `${backgroundSource(style.background)}[bg]`,
    spectrum,
    '[left0]hflip[left]',
    '[left][right]hstack,split[top][bottom0]',
    '[bottom0]vflip[bottom]',
    '[top][bottom]vstack[bars]',
    `color=c=white:s=${barsSize}:r=${VIDEO_FPS},drawgrid=w=${BAR_STEP}:h=${BARS_BOX.height}:t=${BAR_GAP}:c=black,format=gray[comb]`,
    '[bars][comb]blend=all_mode=multiply:shortest=1[mask]',
    `color=c=${ffColour(style.bars)}:s=${barsSize}:r=${VIDEO_FPS},format=rgba[ink]`,
    '[ink][mask]alphamerge[wave]',
  ];
  const { fontSize, lines } = plan.layout;
  const lineHeight = Math.round(fontSize * LINE_HEIGHT);
  const top = TEXT_BOX.y + Math.round((TEXT_BOX.height - lines.length * lineHeight) / 2);
  // A fixed baseline per line (y = baseline − the line's ascent), so lines sit evenly whatever their letters.
  const baseline = (i: number) => top + i * lineHeight + Math.round(lineHeight / 2 + fontSize * 0.36);
  const text = (file: string, font: string, size: number, colour: string, y: number) =>
    `drawtext=fontfile=${escapeFilterValue(font)}:textfile=${escapeFilterValue(file)}:expansion=none:fontsize=${size}:fontcolor=${colour}:x=(w-text_w)/2:y=${y}-ascent`;
  const drawn = [
    `overlay=x=${BARS_BOX.x}:y=${BARS_BOX.y}:shortest=1`,
    ...plan.lineFiles.map((file, i) => text(file, TEXT_FONT, fontSize, ffColour(style.text), baseline(i))),
    text(plan.footerFile, FOOTER_FONT, FOOTER.size, `${ffColour(style.text)}@0.7`, FOOTER.baseline),
  ];
  graph.push(`[bg][wave]${drawn.join(',')}[v]`);
  return graph.join(';');
}

/** How ffmpeg must read an item's audio: raw formats have no header to probe. */
export function audioInputArgs(outputFormat: string): string[] {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(outputFormat)) return [];
  const spec = describeOutputFormat(outputFormat as OutputFormat);
  const raw = { pcm: 's16le', ulaw: 'mulaw', alaw: 'alaw' } as const;
  if (spec.codec === 'pcm' || spec.codec === 'ulaw' || spec.codec === 'alaw')
    return ['-f', raw[spec.codec], '-ar', String(spec.sampleRate), '-ac', '1'];
  return [];
}

/** The ffmpeg arguments of the video: H.264 (yuv420p) + AAC in an mp4 that plays while it downloads. */
export function videoArgs(audioFile: string, outputFormat: string, graph: string, outFile: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1'],
    ...audioInputArgs(outputFormat),
    ...['-i', audioFile, '-filter_complex', graph, '-map', '[v]', '-map', '0:a'],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(VIDEO_FPS),
    ],
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-ac', '2'],
    // -shortest alone lets the video run on ~0.7 s past the audio (frames buffered for interleaving).
    ...['-shortest', '-fflags', '+shortest', '-max_interleave_delta', '0'],
    ...['-map_metadata', '-1', '-movflags', '+faststart', '-y', outFile],
  ];
}

/**
 * How much audio the preview decodes before its frame: right after a seek the decoder gives silence (an
 * mp3's bit reservoir) and the spectrum has no window yet, so a frame taken at once shows flat bars.
 */
const PREVIEW_LEAD_SECONDS = 0.5;

/** The ffmpeg arguments of the preview: the frame at `atSeconds` of the audio, as a PNG. */
export function previewArgs(
  audioFile: string,
  outputFormat: string,
  graph: string,
  atSeconds: number,
  outFile: string,
): string[] {
  const seek = Math.max(0, atSeconds - PREVIEW_LEAD_SECONDS);
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...audioInputArgs(outputFormat),
    ...['-ss', seek.toFixed(3), '-i', audioFile, '-filter_complex', `${graph};[v]format=rgb24[still]`],
    ...['-map', '[still]', '-ss', (atSeconds - seek).toFixed(3), '-frames:v', '1'],
    ...['-c:v', 'png', '-f', 'image2', '-y', outFile],
  ];
}

/** What a render needs from a history item. */
export interface ShareVideoSource {
  /** The item's audio as stored, and its `output_format`. */
  audio: Buffer;
  outputFormat: string;
  durationMs: number;
  /** The text to draw (tags already stripped when asked). */
  text: string;
  theme: ShareVideoTheme;
}

/** The time bound of a video render: a minute plus three times the audio (renders take ~0.2× here). */
export function videoTimeoutMs(durationMs: number): number {
  return Math.min(30 * 60_000, 60_000 + 3 * durationMs);
}

const PREVIEW_TIMEOUT_MS = 30_000;

/** Why ffmpeg failed, in one sentence; undefined when it finished cleanly. */
function ffmpegFailure(exit: ProgramExit): Error | undefined {
  if (exit.error) return new Error(`ffmpeg could not run: ${exit.error}`);
  if (exit.code === 0) return undefined;
  const how = exit.signal ? `was killed (${exit.signal})` : `exited with ${exit.code}`;
  return new Error(`ffmpeg ${how}: ${exit.stderr.trim().slice(0, 500)}`);
}

/** Runs ffmpeg in the program host; `onOutput` gets its standard output line by line. */
async function runFfmpeg(
  args: string[],
  options: { timeoutMs: number; signal?: AbortSignal; onOutput?: (line: string) => void },
): Promise<void> {
  options.signal?.throwIfAborted();
  const run = programHost.run('ffmpeg', args, { timeoutMs: options.timeoutMs });
  run.end();
  let pending = '';
  run.output.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onOutput?.(line);
  });
  const abort = () => run.kill();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const exit = await run.exit;
    options.signal?.throwIfAborted();
    const failure = ffmpegFailure(exit);
    if (failure) throw failure;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}

/**
 * A scratch folder with the audio and the text files, removed after `use`; under this process's scratch
 * root, so a render killed with its process is removed at the next start (platform/scratch-dirs).
 */
async function withWorkDir<T>(
  source: ShareVideoSource,
  use: (dir: string, plan: Omit<FramePlan, 'padAudio'>, audioFile: string) => Promise<T>,
): Promise<T> {
  await fs.access(TEXT_FONT).catch(() => {
    throw new Error(
      `The font ${TEXT_FONT} is missing: install fonts-dejavu-core (scripts/install-system-deps.sh).`,
    );
  });
  return withScratchDir('video-', async (dir) => {
    const audioFile = path.join(dir, 'audio');
    await fs.writeFile(audioFile, source.audio);
    const layout = layoutVideoText(source.text);
    const lineFiles = layout.lines.map((_, i) => path.join(dir, `line-${i}.txt`));
    await Promise.all(layout.lines.map((line, i) => fs.writeFile(lineFiles[i] as string, line)));
    const footerFile = path.join(dir, 'footer.txt');
    await fs.writeFile(footerFile, FOOTER.text);
    return use(dir, { theme: source.theme, layout, lineFiles, footerFile }, audioFile);
  });
}

/** Renders the video; `onProgress` gets the share of the audio encoded so far (0..1). */
export async function renderShareVideo(
  source: ShareVideoSource,
  options: { signal?: AbortSignal; onProgress?: (share: number) => void } = {},
): Promise<Buffer> {
  return withWorkDir(source, async (dir, plan, audioFile) => {
    const outFile = path.join(dir, 'video.mp4');
    const args = videoArgs(audioFile, source.outputFormat, buildFilterGraph(plan), outFile);
    await runFfmpeg(args, {
      timeoutMs: videoTimeoutMs(source.durationMs),
      signal: options.signal,
      onOutput: (line) => {
        const match = /^out_time_us=(\d+)$/.exec(line.trim());
        if (match && source.durationMs > 0)
          options.onProgress?.(Math.min(1, Number(match[1]) / 1000 / source.durationMs));
      },
    });
    return fs.readFile(outFile);
  });
}

/** Renders the preview: the frame at 40 % of the audio (speech, not the silence it starts with). */
export async function renderShareVideoPreview(source: ShareVideoSource): Promise<Buffer> {
  return withWorkDir(source, async (dir, plan, audioFile) => {
    const outFile = path.join(dir, 'preview.png');
    const at = Math.max(0, (source.durationMs / 1000) * 0.4);
    const graph = buildFilterGraph({ ...plan, padAudio: true });
    await runFfmpeg(previewArgs(audioFile, source.outputFormat, graph, at, outFile), {
      timeoutMs: PREVIEW_TIMEOUT_MS,
    });
    return fs.readFile(outFile);
  });
}
