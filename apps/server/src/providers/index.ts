import type { Logger } from 'pino';
import type { Config } from '../config';
import { modelFiles } from '../platform/models/model-store';
import type { BillingProvider } from './billing/billing-provider';
import { createBillingProvider } from './billing/create-billing-provider';
import type { DenoiseProvider } from './denoise/denoise-provider';
import { rnnoiseDenoise } from './denoise/rnnoise-denoise';
import { createLlmProvider } from './llm/create-llm-provider';
import type { LlmProvider } from './llm/llm-provider';
import { createMailer } from './mail/create-mailer';
import type { Mailer } from './mail/mailer';
import type { OutboxKeeper } from './mail/outbox-mailer';
import { MoonshineStt, type SttEngines } from './stt/moonshine-stt';
import type { SttProvider } from './stt/stt-provider';
import { createTranslationProvider } from './translation/create-translation-provider';
import type { TranslationProvider } from './translation/translation-provider';
import { OpenAiCompatibleProvider, routeProviders } from './tts/openai-compatible-tts';
import type { TtsProvider } from './tts/tts-provider';
import { pitchFormantConversion } from './voice-conversion/pitch-formant-conversion';
import type { VoiceConversionProvider } from './voice-conversion/voice-conversion-provider';

/**
 * The engines the modules work with, one per kind, each behind its interface: the app hands them to the
 * modules (AppDeps `providers`), and a module takes the one it needs from there, never the
 * implementation. Each kind has an embedded default that needs no setup.
 */
export interface Providers {
  /** Text to speech: the engine pool, with `external` voices sent to an OpenAI-compatible server when configured. */
  tts: TtsProvider;
  /** Speech to text: the embedded English recogniser in the engine children (transcripts, the captcha). */
  stt: SttProvider;
  /** The voice changer's conversion: the pitch/formant transform. */
  voiceConversion: VoiceConversionProvider;
  /** Background noise removal: RNNoise. */
  denoise: DenoiseProvider;
  /** Mail: SMTP when SMTP_URL is set, else the local outbox. */
  mail: Mailer;
  /** Payments: the built-in test provider or Stripe (BILLING_PROVIDER); null when payments are off. */
  billing: BillingProvider | null;
  /**
   * Chat completions for agents (llm/llm-provider.ts): an OpenAI-compatible server, the embedded model, or
   * none (unavailable, with the reason in its status).
   */
  llm: LlmProvider;
  /**
   * Translation for dubbing (translation/translation-provider.ts): Apertium on this machine for the pairs
   * it has (directly or through Spanish), else a LibreTranslate server or a chat model when configured.
   */
  translation: TranslationProvider;
}

/**
 * Chooses every provider from the config, once, at start-up (main.ts, the test app). The engine pool is
 * started by the caller, which also stops it; `keepOutbox` is where the local outbox keeps its mails (the
 * mail module's table, handed in so providers stay below the modules).
 */
export function createProviders(
  config: Pick<
    Config,
    | 'externalTts'
    | 'externalStt'
    | 'engines'
    | 'mail'
    | 'env'
    | 'billing'
    | 'publicUrl'
    | 'llm'
    | 'translation'
  >,
  parts: { engines: TtsProvider & SttEngines; keepOutbox: OutboxKeeper; logger: Logger },
): Providers {
  const external = config.externalTts
    ? new OpenAiCompatibleProvider({ ...config.externalTts, timeoutMs: config.engines.timeoutMs })
    : undefined;
  return {
    tts: routeProviders(parts.engines, external),
    stt: new MoonshineStt(
      parts.engines,
      config.externalStt ? { ...config.externalStt, timeoutMs: config.engines.timeoutMs } : undefined,
    ),
    voiceConversion: pitchFormantConversion,
    denoise: rnnoiseDenoise,
    mail: createMailer(config, parts.keepOutbox, parts.logger),
    billing: createBillingProvider(config),
    llm: createLlmProvider(config, { logger: parts.logger, modelFiles }),
    translation: createTranslationProvider(config),
  };
}
