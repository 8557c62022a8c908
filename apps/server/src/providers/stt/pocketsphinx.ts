import fs from 'node:fs/promises';
import path from 'node:path';
import { withScratchDir } from '../../platform/scratch-dirs';
import { programHost } from '../engines/program-host';
import { encodeAudio } from '../tts/encode-audio';
import type { SttProvider } from './stt-provider';

/**
 * Transcribes mono English speech with Debian's pocketsphinx (its en-us model, at 16 kHz): the words it
 * heard, lower case. Used by the professional-clone captcha and by the engines' round-trip tests. A weak
 * recogniser (≈ 20–40 % word error on clear speech): callers ask for most words, not all. It runs in the
 * program host, like ffmpeg, so the server's process is never forked.
 */
export async function transcribe(
  audio: { sampleRate: number; samples: Int16Array },
  options: { timeoutMs?: number } = {},
): Promise<string> {
  return withScratchDir('stt-', async (dir) => {
    const file = path.join(dir, 'in.wav');
    await fs.writeFile(file, await encodeAudio({ ...audio, channels: 1 }, 'wav_16000'));
    const run = programHost.run('pocketsphinx_continuous', ['-infile', file, '-logfn', '/dev/null'], {
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    const out: Buffer[] = [];
    run.output.on('data', (chunk: Buffer) => out.push(chunk));
    run.end();
    const exit = await run.exit;
    if (exit.error) throw new Error(`pocketsphinx could not run: ${exit.error}`);
    if (exit.signal === 'SIGKILL') throw new Error('pocketsphinx took too long to transcribe.');
    if (exit.code !== 0)
      throw new Error(`pocketsphinx failed (${exit.code ?? exit.signal}): ${exit.stderr.slice(0, 300)}`);
    const stdout = Buffer.concat(out).toString();
    return stdout.replace(/\s+/g, ' ').trim().toLowerCase();
  });
}

/** The embedded speech to text: pocketsphinx, English only. */
export const pocketsphinxStt: Pick<SttProvider, 'transcribe'> = { transcribe };
