import fsp from 'node:fs/promises';
import path from 'node:path';
import { encodeWav } from '@parla/audio';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { withScratchDir } from '../../platform/scratch-dirs';
import type { SttProvider } from '../../providers/stt/stt-provider';
import type { WordAligner } from './speech-pipeline';
import type { TtsDeps } from './tts.service';

/**
 * The speech-to-text provider's forced aligner as the pipeline's WordAligner: the piece's audio written
 * as a WAV to a scratch folder and aligned with its text: a time per character of the text.
 */
export function wordAligner(stt: SttProvider): WordAligner {
  return (audio, text, { tenant, signal }) =>
    withScratchDir('tts-align', async (dir) => {
      const file = path.join(dir, 'piece.wav');
      await fsp.writeFile(
        file,
        encodeWav({ sampleRate: audio.sampleRate, channels: 1, samples: audio.samples }),
      );
      const aligned = await stt.align({ file, text, tenant: tenant ?? '', ...(signal ? { signal } : {}) });
      return aligned.characters.map((c) => ({ start: c.start, end: c.end }));
    });
}

/** What a generation needs from the app: the engine pool, with the external speech server if configured. */
export function ttsDepsOf(deps: AppDeps): TtsDeps {
  return {
    db: deps.database.db,
    engines: deps.providers.tts,
    externalConfigured: deps.config.externalTts !== undefined,
    models: deps.models,
    alignWords: wordAligner(deps.providers.stt),
    storage: deps.storage,
    clock: deps.clock,
    logger: deps.logger,
    leases: deps.leases,
    events: deps.events,
  };
}

/**
 * How a generation's answer may be cached: by no shared cache (`private`), and never reused without asking
 * (`no-cache`). Not the API's default `no-store` (platform/no-store.ts): Chromium reports a streamed body
 * with `no-store` that the page reads as it arrives as canceled (`net::ERR_ABORTED`) once it is read to its
 * end, so every completed stream logged a failure in the console (issue 26 item 7). Nothing is lost: the
 * answer is to a POST without Content-Location, which no cache may reuse (RFC 9111 §4), and browsers keep
 * no POST answer of fetch().
 */
export const GENERATION_CACHE_CONTROL = 'private, no-cache';

/** The public API's response headers of a generation. */
export function withGenerationHeaders(
  reply: FastifyReply,
  request: FastifyRequest,
  result: { characterCost: number; historyItemId: string | undefined },
): void {
  reply.header('cache-control', GENERATION_CACHE_CONTROL);
  reply.header('request-id', request.id);
  reply.header('x-character-count', String(result.characterCost));
  if (result.historyItemId) reply.header('history-item-id', result.historyItemId);
}
