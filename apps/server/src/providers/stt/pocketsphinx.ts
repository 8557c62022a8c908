import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { withScratchDir } from '../../platform/scratch-dirs';
import { encodeAudio } from '../tts/encode-audio';
import type { SttProvider } from './stt-provider';

/**
 * Transcribes mono English speech with Debian's pocketsphinx (its en-us model, at 16 kHz): the words it
 * heard, lower case. Used by the professional-clone captcha and by the engines' round-trip tests. A weak
 * recogniser (≈ 20–40 % word error on clear speech): callers ask for most words, not all.
 */
export async function transcribe(
  audio: { sampleRate: number; samples: Int16Array },
  options: { timeoutMs?: number } = {},
): Promise<string> {
  return withScratchDir('stt-', async (dir) => {
    const file = path.join(dir, 'in.wav');
    await fs.writeFile(file, await encodeAudio({ ...audio, channels: 1 }, 'wav_16000'));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'pocketsphinx_continuous',
        ['-infile', file, '-logfn', '/dev/null'],
        { timeout: options.timeoutMs ?? 120_000, maxBuffer: 4 * 1024 * 1024 },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
    return stdout.replace(/\s+/g, ' ').trim().toLowerCase();
  });
}

/** The embedded speech to text: pocketsphinx, English only. */
export const pocketsphinxStt: SttProvider = { transcribe };
