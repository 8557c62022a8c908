import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { WordTiming } from '@parla/audio';
import { clamp, parseWav } from '@parla/audio';
import { type ProgramRun, programHost } from '../../../platform/program-host';
import { makeScratchDir, withScratchDir } from '../../../platform/scratch-dirs';
import { synthesisBoundMs } from '../engine-synthesis';
import { festivalSyllables } from '../phoneme-alphabets';
import {
  placeholderWords,
  type SplicedText,
  spliceSpans,
  usableSpans,
  wordsOnRequest,
} from '../phoneme-splice';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts-provider';
import { runProgram } from './process-run';

/** Festival voices from Debian: the HTS voice (the best English voice measured here) and the kal diphones. */
export const FESTIVAL_VOICES = ['cmu_us_slt_arctic_hts', 'kal_diphone'] as const;

/** A Scheme string literal of any text (control characters become spaces: the reader reads it whole). */
function schemeString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')}"`;
}

/** A lexicon entry a synthesis adds for its phoneme spans: a placeholder word and its syllables. */
export interface FestivalEntry {
  word: string;
  syllables: string;
}

/**
 * One synthesis for a festival process in pipe mode. It prints each token with the times of its first
 * and last spoken word (`T<TAB>name<TAB>start<TAB>end`), then `<marker> ok`; an error inside prints
 * `<marker> error` instead (unwind-protect), and festival reads on. `parla_utt` is cleared first, so a
 * failed synthesis can never save the previous one's audio.
 *
 * A token's daughters include its punctuation (`dog` and `.` in "dog.") and words that got no sound
 * (bytes of a non-ASCII letter), which report 0 as their start and end: only words that end after they
 * start count, else a sentence's last word ended at 0 and had no duration.
 */
export function synthesisScript(
  text: string,
  wavPath: string,
  marker: string,
  entries: readonly FestivalEntry[] = [],
): string {
  // The entries are festival's phoneme input (research-30 §1); the process lives on, so each placeholder's
  // entry as it was (its letter-to-sound pronunciation) is looked up first and put back afterwards, also
  // when the synthesis failed. Words and syllables come from our own tables: letters and digits only.
  const save = entries.length
    ? `(set! parla_saved (list ${entries.map((e) => `(lex.lookup "${e.word}" nil)`).join(' ')}))
${entries.map((e) => `(lex.add.entry '("${e.word}" nil ${e.syllables}))`).join('\n')}
`
    : '';
  const restore = entries.length ? `(mapcar (lambda (entry) (lex.add.entry entry)) parla_saved)\n` : '';
  return `(set! parla_utt nil)
${save}(unwind-protect
  (begin
    (set! parla_utt (Utterance Text ${schemeString(text)}))
    (utt.synth parla_utt)
    (utt.save.wave parla_utt ${schemeString(wavPath)} 'riff)
    (mapcar (lambda (tok)
      (let ((start nil) (end nil))
        (mapcar (lambda (word)
            (if (> (item.feat word "word_end") (item.feat word "word_start"))
              (begin
                (if (not start) (set! start (item.feat word "word_start")))
                (set! end (item.feat word "word_end")))))
          (item.daughters tok))
        (if start (format t "T\\t%s\\t%f\\t%f\\n" (item.name tok) start end))))
      (utt.relation.items parla_utt 'Token))
    (format t "\\n%s ok\\n" "${marker}"))
  (format t "\\n%s error\\n" "${marker}"))
${restore}(fflush nil)
`;
}

/**
 * Festival's text and lexicon entries for a request's phoneme spans: each span becomes a made-up word
 * (placeholderWords; festival's lexicon is case-insensitive too) with the span's syllables in the radio
 * phoneset (`(((t ax) 0) ((m aa) 1) ((t ow) 0))`).
 */
export function festivalInput(request: Pick<EngineSynthesisRequest, 'text' | 'phonemes'>): {
  spliced: SplicedText;
  entries: FestivalEntry[];
} {
  const spans = usableSpans(request.text, request.phonemes);
  const words = placeholderWords(request.text, spans.length);
  const entries: FestivalEntry[] = [];
  const spliced = spliceSpans(request.text, spans, (span, index) => {
    const syllables = festivalSyllables(span.ipa);
    if (!syllables) return undefined;
    const word = words[index] as string;
    entries.push({ word, syllables });
    return word;
  });
  return { spliced, entries };
}

/**
 * Past this, a synthesis is taken for a hang: its festival process is killed (the next call starts
 * another). In proportion to the text, as the pool's own bound (synthesisBoundMs), and never longer.
 */
const CALL_TIMEOUT_MS = 20_000;
/** Loading festival with a voice takes about a second (the HTS voice: ~1 s, ~330 MB); a bound for a slow machine. */
const START_TIMEOUT_MS = 60_000;

/**
 * A long-lived `festival --pipe` with one voice loaded, fed Scheme on stdin. Loading festival and the HTS
 * voice costs ~1 s per process, far more than most sentences, so each engine child keeps one process per
 * voice instead of running `festival --batch` per call. Calls run one at a time; each has its own time
 * bound, past which the process is killed and the call fails. A process that dies fails only the call it
 * was running: the next call starts a new one. It runs in the child's program host, which kills it when
 * the child goes away (crashed, or killed past the pool's time bound).
 */
class FestivalProcess {
  private run: ProgramRun | undefined;
  private dir: string | undefined;
  private output = '';
  private seq = 0;
  /** Marks the lines that end a call; random, so no text can print one. */
  private readonly nonce = randomBytes(8).toString('hex');
  private waiting:
    | { marker: string; resolve(reply: { ok: boolean; output: string }): void; reject(error: Error): void }
    | undefined;
  /** Calls run one after another: festival does one thing at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly voice: string) {}

  /** Synthesizes one text: festival's token lines and the WAV it saved. */
  synthesize(text: string, entries: readonly FestivalEntry[] = []): Promise<{ tokens: string; wav: Buffer }> {
    const call = this.queue.then(() => this.call(text, entries));
    this.queue = call.catch(() => undefined);
    return call;
  }

  private async call(
    text: string,
    entries: readonly FestivalEntry[],
  ): Promise<{ tokens: string; wav: Buffer }> {
    if (!this.run) await this.start();
    const wavPath = path.join(this.dir as string, 'out.wav');
    await fsp.rm(wavPath, { force: true });
    const marker = `${this.nonce}:${++this.seq}`;
    const reply = await this.send(
      synthesisScript(text, wavPath, marker, entries),
      marker,
      synthesisBoundMs(text.length, CALL_TIMEOUT_MS),
    );
    if (!reply.ok) throw new Error('festival failed on this text.');
    return { tokens: reply.output, wav: await fsp.readFile(wavPath) };
  }

  private async start(): Promise<void> {
    this.dir ??= await makeScratchDir('festival-');
    // No time bound on the process: it lives for many calls, each with its own.
    const run = programHost.run('festival', ['--pipe']);
    this.run = run;
    this.output = '';
    const decoder = new StringDecoder('utf8');
    run.output.on('data', (chunk: Buffer) => {
      if (this.run !== run) return;
      this.output += decoder.write(chunk);
      this.deliver();
    });
    void run.exit.then((exit) => {
      const how = exit.error ?? exit.signal ?? `exit code ${exit.code}`;
      this.fail(
        run,
        new Error(`festival stopped (${how})${exit.stderr ? `: ${exit.stderr.slice(-300).trim()}` : ''}`),
      );
    });
    const marker = `${this.nonce}:ready`;
    const ready = await this.send(
      `(voice_${this.voice})\n(format t "\\n%s ok\\n" "${marker}")\n(fflush nil)\n`,
      marker,
      START_TIMEOUT_MS,
    );
    if (!ready.ok) throw new Error(`festival could not load the voice ${this.voice}.`);
  }

  /** Writes a script and waits for its marker line, within the time bound. */
  private send(script: string, marker: string, timeoutMs: number): Promise<{ ok: boolean; output: string }> {
    const run = this.run;
    if (!run) return Promise.reject(new Error('festival is not running'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(run, new Error(`festival did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting = {
        marker,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      run.write(Buffer.from(script));
    });
  }

  /** Hands the waiting call its output once its marker line has come. */
  private deliver(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const end = new RegExp(`\\n${waiting.marker} (ok|error)\\n`).exec(this.output);
    if (!end) return;
    const output = this.output.slice(0, end.index);
    this.output = this.output.slice(end.index + end[0].length);
    this.waiting = undefined;
    waiting.resolve({ ok: end[1] === 'ok', output });
  }

  /** The process failed or hung: it is killed and the waiting call fails; the next call starts another. */
  private fail(run: ProgramRun, error: Error): void {
    if (this.run !== run) return;
    this.run = undefined;
    run.kill();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}

const processes = new Map<string, FestivalProcess>();

/** Places festival's tokens back on the input: each token is looked for after the previous one. */
export function alignTokens(text: string, output: string, stretch = 1): WordTiming[] {
  const words: WordTiming[] = [];
  let cursor = 0;
  for (const line of output.split('\n')) {
    const [tag, name, start, end] = line.split('\t');
    if (tag !== 'T' || !name) continue;
    const at = text.indexOf(name, cursor);
    if (at === -1) continue;
    cursor = at + name.length;
    words.push({
      start: at,
      end: at + name.length,
      startMs: Math.round(Number(start) * 1000 * stretch),
      endMs: Math.round(Number(end) * 1000 * stretch),
    });
  }
  return words;
}

/**
 * Festival with word times from its own utterance structure, in the engine child's long-lived festival
 * process for the voice. The HTS voice ignores festival's duration setting, so a rate other than 1 is
 * applied afterwards with ffmpeg's atempo (pitch unchanged) and the word times are scaled with it; pitch
 * is not changed for festival voices.
 */
export async function synthesizeWithFestival(
  request: EngineSynthesisRequest,
): Promise<EngineSynthesisResult> {
  if (!(FESTIVAL_VOICES as readonly string[]).includes(request.voice)) {
    throw new Error(`Unknown festival voice "${request.voice}".`);
  }
  let festival = processes.get(request.voice);
  if (!festival) {
    festival = new FestivalProcess(request.voice);
    processes.set(request.voice, festival);
  }
  const { spliced, entries } = festivalInput(request);
  const { tokens, wav } = await festival.synthesize(spliced.text, entries);
  const rate = clamp(request.rate ?? 1, 0.5, 2);
  const audio = parseWav(rate === 1 ? wav : await changeTempo(wav, rate));
  return {
    sampleRate: audio.sampleRate,
    samples: audio.samples,
    words: wordsOnRequest(spliced, alignTokens(spliced.text, tokens, 1 / rate)),
    timing: 'exact',
  };
}

/** A WAV played faster or slower at the same pitch (ffmpeg's atempo). */
async function changeTempo(wav: Buffer, rate: number): Promise<Buffer> {
  return withScratchDir('festival-tempo-', async (dir) => {
    const input = path.join(dir, 'in.wav');
    const output = path.join(dir, 'out.wav');
    await fsp.writeFile(input, wav);
    await runProgram('ffmpeg', [
      '-v',
      'error',
      '-i',
      input,
      '-af',
      `atempo=${rate}`,
      '-c:a',
      'pcm_s16le',
      output,
    ]);
    return await fsp.readFile(output);
  });
}
