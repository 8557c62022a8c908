import {
  DEFAULT_TTS_MODEL_ID,
  type EngineVoice,
  findModel,
  type PremadeVoice,
  speakingRendition,
  type TtsModel,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { encodeAudio } from '../../platform/media/encode-audio';
import { transformVoice } from '../../platform/media/voice-transform';
import type { ModelAvailability as StoreAvailability } from '../../platform/models/model-store';
import type { Storage } from '../../platform/storage/storage';
import type { EnginePool } from '../../providers/engines/engine-pool';
import { isSubjectRemembered, rememberGeneratedAudio } from '../provenance';
import { type SpeakingVoice, timbreFor } from './speaking-voice';
import { neuralAvailability } from './voices.service';
import { findVoiceById } from './voices.store';

/** What each voice says in its preview, in its own language. */
const PREVIEW_TEXT: Record<string, string> = {
  en: "Hello, I'm {name}. This is how I sound when I read your text aloud.",
  es: 'Hola, soy {name}. Así sueno cuando leo tu texto en voz alta.',
  fr: 'Bonjour, je suis {name}. Voici ma voix quand je lis votre texte à haute voix.',
  de: 'Hallo, ich bin {name}. So klinge ich, wenn ich deinen Text vorlese.',
  it: 'Ciao, sono {name}. Ecco come suono quando leggo il tuo testo ad alta voce.',
  pt: 'Olá, eu sou {name}. É assim que eu soo quando leio o seu texto em voz alta.',
  hi: 'नमस्ते, मैं {name} हूँ। जब मैं आपका पाठ पढ़ती हूँ तो मेरी आवाज़ ऐसी होती है।',
  zh: '你好，我是{name}。这就是我朗读你的文字时的声音。',
  ja: 'こんにちは、{name}です。これが わたしの こえです。',
  pl: 'Cześć, jestem {name}. Tak brzmię, kiedy czytam twój tekst na głos.',
  nl: 'Hallo, ik ben {name}. Zo klink ik als ik je tekst voorlees.',
};

export interface VoicePreviewDeps {
  engines: EnginePool;
  storage: Storage;
  logger: Logger;
  /** Where the previews' fingerprints are kept (the provenance module). */
  db: Db;
  /**
   * The model store: a voice's preview is spoken neural when its model is there (undefined: it is, for a
   * test's fake engines). Not optional, so a caller cannot leave it out by mistake: speech to speech did,
   * and asked for Kokoro on a server without it.
   */
  models: StoreAvailability | undefined;
}

/**
 * The rendition a premade voice's preview is spoken with: the default model's (neural where the voice has
 * a neural rendition and its model is on this server, else its classic one), so it sounds as the voice
 * will by default.
 */
export function previewRendition(deps: Pick<VoicePreviewDeps, 'models'>, voice: PremadeVoice): EngineVoice {
  const model = findModel(DEFAULT_TTS_MODEL_ID) as TtsModel;
  return (
    speakingRendition(model, voice, undefined, neuralAvailability({ store: deps.models })) ?? voice.primary
  );
}

/**
 * Where a preview is kept: per voice and rendition, so a voice re-based on another engine (or speaking
 * classic while its neural model is missing) gets a new preview instead of its old one.
 */
const storageKey = (voiceId: string, rendition: EngineVoice) =>
  `voice-previews/v2/${voiceId}/${rendition.engine}-${rendition.voice.replace(/[^A-Za-z0-9_-]/g, '_')}.mp3`;

/** Whose work the previews made at start are for the engines' fair queue: nobody's requests wait long. */
const PREVIEW_TENANT = 'voice-previews';
/** What a premade voice's preview is kept as in the provenance module. */
const previewSubject = (voiceId: string) => `voice-preview:${voiceId}`;
const inFlight = new Map<string, Promise<Buffer>>();

/** A voice's preview (mp3), made once with its own engine and kept in storage. */
export function getVoicePreview(deps: VoicePreviewDeps, voice: PremadeVoice): Promise<Buffer> {
  const rendition = previewRendition(deps, voice);
  const key = storageKey(voice.voice_id, rendition);
  const running = inFlight.get(key);
  if (running) return running;
  const made = (async () => {
    const cached = await deps.storage.get(key);
    if (cached) return cached;
    const text = (PREVIEW_TEXT[voice.language] ?? (PREVIEW_TEXT.en as string)).replace('{name}', voice.name);
    const speech = await deps.engines.synthesize({ ...rendition, text }, { tenant: PREVIEW_TENANT });
    const mp3 = await encodeAudio(
      { sampleRate: speech.sampleRate, channels: 1, samples: speech.samples },
      'mp3_44100_128',
    );
    await deps.storage.put(key, mp3);
    // Anyone may download it: recognisable if it is played back (issue 26 item 7). The installation's own.
    rememberGeneratedAudio(
      deps,
      { workspaceId: null, source: 'voice_preview', subject: previewSubject(voice.voice_id) },
      speech,
    );
    return mp3;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, made);
  return made;
}

export const ownPreviewKey = (voiceId: string) => `voice-previews/own/${voiceId}.mp3`;

/**
 * An own voice's preview: its base voice's engine saying its preview sentence (its own, as a built-in
 * voice has, else its language's) with the voice's name,
 * moved to the voice's pitch and formants like its speech is. Kept in storage until the voice changes.
 */
export function getOwnVoicePreview(deps: VoicePreviewDeps, voice: SpeakingVoice): Promise<Buffer> {
  const key = ownPreviewKey(voice.voice_id);
  const running = inFlight.get(key);
  if (running) return running;
  const made = (async () => {
    const cached = await deps.storage.get(key);
    if (cached) return cached;
    const sentence = voice.previewText ?? PREVIEW_TEXT[voice.language] ?? (PREVIEW_TEXT.en as string);
    const text = sentence.replaceAll('{name}', voice.name);
    // As the default model speaks it: a voice designed or cloned on Kokoro through its blend (decision 22),
    // one made before through its base's classic engine. In the voice's own language: a voice labelled
    // with a language no premade voice speaks is built on an English one, and its preview is its language
    // rendition (issue 18), like its speech.
    const rendition = previewRendition(deps, voice);
    const speech = await deps.engines.synthesize({ ...rendition, text });
    const timbre = await timbreFor(deps.engines, voice, rendition);
    const audio = { sampleRate: speech.sampleRate, channels: 1 as const, samples: speech.samples };
    const spoken = timbre ? await transformVoice(audio, timbre) : audio;
    const mp3 = await encodeAudio(spoken, 'mp3_44100_128');
    await deps.storage.put(key, mp3);
    // Recognisable if it is played back (issue 26 item 7); its fingerprint goes with the voice's workspace.
    const workspaceId = (await findVoiceById(deps.db, voice.voice_id))?.workspaceId ?? null;
    rememberGeneratedAudio(deps, { workspaceId, source: 'voice_preview' }, spoken);
    return mp3;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, made);
  return made;
}

/**
 * A preview made before its fingerprint was kept (issue 26 item 7): its stored MP3 decoded and
 * fingerprinted once; after that, a look-up of its subject is all start-up does.
 */
async function rememberStoredPreview(deps: VoicePreviewDeps, voice: PremadeVoice): Promise<void> {
  const subject = previewSubject(voice.voice_id);
  if (await isSubjectRemembered(deps, subject)) return;
  const mp3 = await deps.storage.get(storageKey(voice.voice_id, previewRendition(deps, voice)));
  if (!mp3) return;
  const pcm = await decodeToPcm(mp3, { sampleRate: 16_000, maxSeconds: 60 });
  rememberGeneratedAudio(deps, { workspaceId: null, source: 'voice_preview', subject }, pcm);
}

/**
 * How long the start-up warm-up rests after a neural preview, as a multiple of the time that preview took:
 * a third of one core at most, so a fresh server's first users keep the engines (measured: a short Kokoro
 * sentence took 3.6–10.5 s instead of 1.8 s while 63 previews were made back to back on 2 busy cores).
 */
const NEURAL_REST_FACTOR = 2;

const isNeural = (rendition: EngineVoice) => rendition.engine === 'kokoro' || rendition.engine === 'piper';

/**
 * Makes every missing preview at start-up, one at a time so requests keep the engines: the classic ones
 * first (tens of milliseconds each), then the neural ones with a rest after each (NEURAL_REST_FACTOR). A
 * preview asked for before its turn is made on that request.
 */
export async function warmVoicePreviews(
  deps: VoicePreviewDeps,
  voices: readonly PremadeVoice[],
  options: { restFactor?: number } = {},
): Promise<void> {
  const started = Date.now();
  const restFactor = options.restFactor ?? NEURAL_REST_FACTOR;
  const ordered = [
    ...voices.filter((v) => !isNeural(previewRendition(deps, v))),
    ...voices.filter((v) => isNeural(previewRendition(deps, v))),
  ];
  let made = 0;
  for (const voice of ordered) {
    try {
      const rendition = previewRendition(deps, voice);
      if (!(await deps.storage.stat(storageKey(voice.voice_id, rendition)))) {
        const at = Date.now();
        await getVoicePreview(deps, voice);
        made += 1;
        if (isNeural(rendition) && restFactor > 0)
          await new Promise((resolve) => setTimeout(resolve, (Date.now() - at) * restFactor).unref());
      } else await rememberStoredPreview(deps, voice);
    } catch (error) {
      deps.logger.warn(
        { err: error, voiceId: voice.voice_id },
        'a voice preview could not be made; it will be tried on first request',
      );
    }
  }
  if (made > 0) deps.logger.info({ made, ms: Date.now() - started }, 'voice previews ready');
}
