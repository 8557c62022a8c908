import {
  describeOutputFormat,
  engineVoiceFor,
  formatNeedsTier,
  type OutputFormat,
  type TextToSpeechBody,
  tierDisplayNames,
} from '@parla/contracts';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Storage } from '../../platform/storage/storage';
import { EngineFailure, type EnginePool } from '../../providers/engines/engine-pool';
import type { CharacterAlignment } from '../../providers/tts/alignment';
import { encodeAudio } from '../../providers/tts/encode-audio';
import { synthesizeSpeech } from '../../providers/tts/speech-pipeline';
import {
  acquireConcurrencySlot,
  refundCredits,
  releaseConcurrencySlot,
  reserveCredits,
} from '../credits/credits.service';
import { historyItems } from '../history/history.tables';
import { DEFAULT_VOICE_SETTINGS, getModel, getVoice } from '../voices/voices.service';
import { workspaces } from '../workspaces/workspaces.tables';

export interface TtsDeps {
  db: Db;
  engines: EnginePool;
  storage: Storage;
  clock: Clock;
  logger: Logger;
  engineTimeoutMs: number;
}

export interface TtsCaller {
  userId: string;
  workspaceId: string;
  apiKeyId?: string | undefined;
  requestId: string;
}

export interface TtsResult {
  audio: Buffer;
  contentType: string;
  historyItemId: string | undefined;
  characterCost: number;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
}

const invalid = (field: string, message: string) =>
  new AppError('invalid_request', message, {
    errors: [{ loc: ['body', field], msg: message, type: 'value_error' }],
  });

/**
 * One text-to-speech request end to end (issue 4): checks, a concurrency slot, credits reserved, speech
 * in the engine children, encoding, then — in one transaction — the history item that settles the
 * credits. Any failure refunds the credits and leaves no history item.
 */
export async function textToSpeech(
  deps: TtsDeps,
  caller: TtsCaller,
  input: { voiceId: string; outputFormat: OutputFormat; enableLogging: boolean; body: TextToSpeechBody },
): Promise<TtsResult> {
  const voice = getVoice(input.voiceId);
  const model = getModel(input.body.model_id);
  const { text } = input.body;
  if (text.length > model.maximum_text_length_per_request) {
    throw invalid(
      'text',
      `The text is ${text.length} characters long; ${model.model_id} accepts at most ${model.maximum_text_length_per_request}.`,
    );
  }
  const rendition = engineVoiceFor(model, voice);
  if (!rendition) throw invalid('model_id', `${model.name} does not speak the language of ${voice.name}.`);

  const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.id, caller.workspaceId));
  if (!workspace)
    throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
  const neededTier = formatNeedsTier(input.outputFormat, workspace.tier);
  if (neededTier) {
    throw new AppError(
      'output_format_not_allowed',
      `The output format ${input.outputFormat} needs the ${tierDisplayNames[neededTier]} plan or higher.`,
    );
  }

  const settings = { ...DEFAULT_VOICE_SETTINGS, ...stripNulls(input.body.voice_settings ?? {}) };
  const normalize =
    input.body.apply_text_normalization === 'on' ||
    (input.body.apply_text_normalization === 'auto' &&
      (input.body.language_code ?? voice.language).startsWith('en'));
  const characterCost = Math.max(1, Math.ceil(text.length * model.token_cost_factor));

  const slot = await acquireConcurrencySlot(deps.db, {
    workspaceId: workspace.id,
    tier: workspace.tier,
    now: deps.clock.now(),
    ttlMs: deps.engineTimeoutMs * 4,
  });
  try {
    const reservation = await reserveCredits(deps.db, {
      workspaceId: workspace.id,
      apiKeyId: caller.apiKeyId,
      amount: characterCost,
    });
    let audioKey: string | undefined;
    try {
      const speech = await synthesizeSpeech(deps.engines, {
        text,
        voice: rendition,
        normalize,
        settings: {
          speed: settings.speed,
          stability: settings.stability,
          style: settings.style,
          useSpeakerBoost: settings.use_speaker_boost,
        },
      });
      const audio = await encodeAudio(
        { sampleRate: speech.sampleRate, channels: 1, samples: speech.samples },
        input.outputFormat,
      );
      const spec = describeOutputFormat(input.outputFormat);
      let historyItemId: string | undefined;
      if (input.enableLogging) {
        historyItemId = newId();
        audioKey = `history/${workspace.id}/${historyItemId}.${spec.extension}`;
        await deps.storage.put(audioKey, audio);
        const itemId = historyItemId;
        const key = audioKey;
        await deps.db.transaction(async (tx) => {
          await tx.insert(historyItems).values({
            id: itemId,
            workspaceId: workspace.id,
            userId: caller.userId,
            source: 'TTS',
            voiceId: voice.voice_id,
            voiceName: voice.name,
            voiceCategory: 'premade',
            modelId: model.model_id,
            text,
            settings,
            outputFormat: input.outputFormat,
            contentType: spec.contentType,
            audioKey: key,
            audioBytes: audio.length,
            durationMs: Math.round((speech.samples.length / speech.sampleRate) * 1000),
            alignment: { alignment: speech.alignment, normalized_alignment: speech.normalizedAlignment },
            characterCountChangeFrom: reservation.from,
            characterCountChangeTo: reservation.to,
            requestId: caller.requestId,
          });
        });
      }
      return {
        audio,
        contentType: spec.contentType,
        historyItemId,
        characterCost,
        alignment: speech.alignment,
        normalizedAlignment: speech.normalizedAlignment,
      };
    } catch (error) {
      await refundCredits(deps.db, reservation);
      if (audioKey) await deps.storage.delete(audioKey).catch(() => undefined);
      if (error instanceof EngineFailure) {
        deps.logger.warn({ err: error, reason: error.reason }, 'speech synthesis failed; credits refunded');
        throw new AppError(
          'service_unavailable',
          'The speech engine failed on this request, twice. Nothing was charged; please try again.',
          { cause: error },
        );
      }
      throw error;
    }
  } finally {
    await releaseConcurrencySlot(deps.db, slot);
  }
}

function stripNulls<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]?: NonNullable<T[K]>;
  };
}
