/**
 * Apertium (Debian's `apertium` 3.8 and its pair packages, scripts/install-system-deps.sh): rule-based
 * translation on this machine, for the few pairs Debian ships, some only through Spanish. Literal and
 * often wrong on idioms (docs/decisions/0024-dubbing.md "Translation" has samples and figures): a draft the
 * user edits in the dubbing editor, free and offline.
 *
 * One run of `apertium` per hop per batch, in the program host (decision 0004), the texts one per line of
 * a scratch file: a file, because the `apertium` script reads stdin as `/dev/stdin`, which under Node is a
 * socket it cannot open — it then prints nothing and exits 0 (measured), so empty output for a non-empty
 * input is an error here. Start-up is 60–150 ms a run; after it, 1,000 lines take 0.15–0.4 s.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { programHost } from '../../platform/program-host';
import { withScratchDir } from '../../platform/scratch-dirs';
import {
  isBlank,
  type TranslationAdapter,
  type TranslationInput,
  type TranslationRoute,
  translateNonBlank,
  translationAborted,
  translationFailed,
  translationUnavailable,
} from './translation-provider';

/**
 * Each direction Parla uses, `source>target` → Apertium mode name. Explicit, because Debian's mode names
 * follow no one rule (`eng-spa` but `es-pt`, `es-fr`, `ro-es`). Only pairs whose both ends are dubbing
 * languages or Spanish, and that work: rus-ukr is left out (its tagger prints nothing on Debian 12:
 * every Russian or Ukrainian text came back empty), eng-hbs too (English to Croatian left most words in
 * English: "Hej, biti free come# to the stranka tonight?"). Debian's es-ro has Romanian to Spanish only.
 */
export const APERTIUM_MODES: Readonly<Record<string, string>> = {
  'en>es': 'eng-spa',
  'es>en': 'spa-eng',
  'es>pt': 'es-pt',
  'pt>es': 'pt-es',
  'es>fr': 'es-fr',
  'fr>es': 'fr-es',
  'es>it': 'spa-ita',
  'it>es': 'ita-spa',
  'ro>es': 'ro-es',
  'id>ms': 'ind-zlm',
  'ms>id': 'zlm-ind',
  'sv>da': 'swe-dan',
  'da>sv': 'dan-swe',
};

/**
 * The languages a pair may pass through, in order of preference. Spanish alone: every pair above that is
 * not direct meets in Spanish, and Catalan (Debian's eng-cat, fra-cat, por-cat, cat-ita) would only be
 * another way between the same languages, never the only one.
 */
export const APERTIUM_PIVOTS: readonly string[] = ['es'];

/** Where Debian's apertium keeps the mode files (`apertium -l` lists the same). */
export const APERTIUM_MODES_DIR = '/usr/share/apertium/modes';

/** Runs one Apertium mode on a batch of lines and answers its output. */
export type ApertiumRunner = (mode: string, text: string, signal?: AbortSignal) => Promise<string>;

export interface ApertiumOptions {
  /** Where the `.mode` files are; a pair is routed only when its mode file is there. */
  modesDir?: string;
  /** Time bound of one run (one hop of one batch): SIGKILL past it. */
  timeoutMs: number;
  /** How a mode is run (tests give their own); default: `apertium` in the program host. */
  run?: ApertiumRunner;
}

/**
 * The route for a pair from the directions available: direct first, then through one pivot. Pure, so
 * the choice is tested without Apertium.
 */
export function apertiumRoute(
  available: ReadonlySet<string>,
  source: string,
  target: string,
): string[] | null {
  if (source === target) return null;
  if (available.has(`${source}>${target}`)) return [source, target];
  for (const pivot of APERTIUM_PIVOTS) {
    if (pivot === source || pivot === target) continue;
    if (available.has(`${source}>${pivot}`) && available.has(`${pivot}>${target}`))
      return [source, pivot, target];
  }
  return null;
}

/**
 * Cleans one output line: Apertium's marks removed (`*word` unknown to the analyser, `@word` missing from
 * the bilingual dictionary, `#word`/`word#` not inflected; `-u` hides the first, not always the others),
 * except where the source line had the same text (a `#hashtag`); runs of white space made one, and no
 * space before a comma or full stop (eng-spa writes "viernes !" and two spaces after a full stop).
 */
export function cleanApertiumLine(output: string, sourceLine: string, target: string): string {
  let line = output.replace(
    /(^|[^\p{L}\p{N}])([*@#])(\p{L}[\p{L}\p{M}\p{N}'’-]*)/gu,
    (whole, before: string, mark: string, word: string) =>
      sourceLine.includes(`${mark}${word}`) ? whole : `${before}${word}`,
  );
  line = line.replace(/(\p{L}[\p{L}\p{M}'’-]*)#(?=$|[^\p{L}\p{N}])/gu, (whole, word: string) =>
    sourceLine.includes(whole) ? whole : word,
  );
  line = line.replace(/\s+/g, ' ').trim();
  // French sets a space before ! ? ; : — other languages do not.
  line = line.replace(target === 'fr' ? /\s+(?=[,.])/g : /\s+(?=[,.!?;:])/g, '');
  return line;
}

/** The source's capital at the start kept (a pivot may lose it: "je ne sais pas."). */
function keepInitialCapital(translated: string, source: string): string {
  const first = source.trimStart().charAt(0);
  const out = translated.charAt(0);
  if (first && first !== first.toLowerCase() && out && out === out.toLowerCase() && out !== out.toUpperCase())
    return out.toUpperCase() + translated.slice(1);
  return translated;
}

/**
 * How `apertium -u -f txt <mode> <file>` runs, in bash in the program host. The `apertium` script starts a
 * pipeline of 6–12 programs; a SIGKILL to the script alone (what the host's kill and time bound do) leaves
 * them running to the end of their input, and the run does not end until they do (measured: a cancel of
 * 20,000 lines ended 5 s later). So the pipeline gets a process group of its own (`set -m`), under
 * coreutils' `timeout`, which kills the whole group at the time bound; and the run's standard input is its
 * lifeline: the adapter keeps it open, and when it closes before the pipeline is done (a cancel) the
 * whole group is killed at once. $1 seconds, $2 mode, $3 file.
 */
export const APERTIUM_WRAPPER = [
  'set -m',
  'exec 3<&0',
  'timeout -s KILL "$1" apertium -u -f txt "$2" "$3" </dev/null 3<&- &',
  'job=$!',
  '( cat <&3 >/dev/null; kill -KILL -- -"$job" 2>/dev/null ) &',
  'lifeline=$!',
  'exec 3<&-',
  'wait "$job"; code=$?',
  'kill -KILL -- -"$lifeline" 2>/dev/null',
  'exit "$code"',
].join('\n');

/** Runs a mode in the program host, the batch written to a scratch file first. */
function hostRunner(timeoutMs: number): ApertiumRunner {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return (mode, text, signal) =>
    withScratchDir('apertium-', async (dir) => {
      const file = path.join(dir, 'input.txt');
      await fsp.writeFile(file, text, { mode: 0o600 });
      if (signal?.aborted) throw translationAborted();
      // The host's own bound is a backstop only: `timeout` ends the pipeline first.
      const run = programHost.run(
        'bash',
        ['-c', APERTIUM_WRAPPER, 'parla-apertium', String(seconds), mode, file],
        {
          timeoutMs: seconds * 1000 + 5000,
        },
      );
      // Closing its standard input is how a run is cancelled (see APERTIUM_WRAPPER).
      const onAbort = () => run.end();
      signal?.addEventListener('abort', onAbort, { once: true });
      const out: Buffer[] = [];
      run.output.on('data', (chunk: Buffer) => out.push(chunk));
      try {
        const exit = await run.exit;
        if (signal?.aborted) throw translationAborted();
        if (exit.error) throw new Error(`apertium could not run (${exit.error})`);
        if (exit.signal === 'SIGKILL' || exit.code === 137)
          throw new Error(`apertium ${mode} took longer than ${seconds} s and was stopped`);
        if (exit.code === 127)
          throw new Error(
            "apertium is not installed (Debian's apertium package: scripts/install-system-deps.sh)",
          );
        if (exit.code !== 0)
          throw new Error(
            `apertium ${mode} ended with exit code ${exit.code}${exit.stderr ? `: ${exit.stderr.trim().slice(0, 300)}` : ''}`,
          );
        return Buffer.concat(out).toString('utf8');
      } finally {
        signal?.removeEventListener('abort', onAbort);
        run.end();
      }
    });
}

export class ApertiumTranslation implements TranslationAdapter {
  readonly name = 'apertium' as const;
  /** The directions of APERTIUM_MODES whose mode file is installed. */
  readonly available: ReadonlySet<string>;
  private readonly run: ApertiumRunner;

  constructor(options: ApertiumOptions) {
    const dir = options.modesDir ?? APERTIUM_MODES_DIR;
    // A few stat calls, once, at start-up: which pair packages this machine has.
    this.available = new Set(
      Object.entries(APERTIUM_MODES)
        .filter(([, mode]) => fs.existsSync(path.join(dir, `${mode}.mode`)))
        .map(([pair]) => pair),
    );
    this.run = options.run ?? hostRunner(options.timeoutMs);
  }

  route(source: string, target: string): TranslationRoute | null {
    const languages = apertiumRoute(this.available, source, target);
    return languages ? { adapter: 'apertium', languages, offline: true } : null;
  }

  async translate(input: TranslationInput): Promise<{ texts: string[]; route: TranslationRoute }> {
    const { source, target, signal } = input;
    const route = this.route(source, target);
    if (!route)
      throw translationUnavailable(
        source,
        target,
        'Apertium has no pair for it here, directly or through Spanish.',
      );
    const texts = await translateNonBlank(input.texts, async (batch) => {
      // One segment a line: a line break inside a segment becomes a space (speech has no layout).
      let lines = batch.map((text) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
      const originals = lines;
      for (let hop = 0; hop + 1 < route.languages.length; hop++) {
        const from = route.languages[hop] as string;
        const to = route.languages[hop + 1] as string;
        lines = await this.hop(lines, from, to, signal, source, target);
      }
      return lines.map((line, i) => keepInitialCapital(line, originals[i] as string));
    });
    return { texts, route };
  }

  /** One mode over the batch; the line count must come back unchanged. */
  private async hop(
    lines: string[],
    from: string,
    to: string,
    signal: AbortSignal | undefined,
    source: string,
    target: string,
  ): Promise<string[]> {
    const mode = APERTIUM_MODES[`${from}>${to}`] as string;
    let output: string;
    try {
      output = await this.run(mode, `${lines.join('\n')}\n`, signal);
    } catch (error) {
      if (signal?.aborted) throw translationAborted();
      throw translationFailed(source, target, error instanceof Error ? error.message : String(error), error);
    }
    if (isBlank(output))
      throw translationFailed(
        source,
        target,
        `apertium ${mode} printed nothing for ${lines.length} non-empty line(s); its pair data may be broken.`,
      );
    const out = output.replace(/\r/g, '').replace(/\n$/, '').split('\n');
    if (out.length !== lines.length)
      throw translationFailed(
        source,
        target,
        `apertium ${mode} gave back ${out.length} line(s) for ${lines.length}: the texts cannot be matched to their translations.`,
      );
    return out.map((line, i) => cleanApertiumLine(line, lines[i] as string, to));
  }
}
