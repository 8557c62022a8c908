import type { Readable } from 'node:stream';
import type { CharacterAlignment } from '@parla/audio';
import {
  DIALOGUE_LINE_PAUSE_MS,
  describeOutputFormat,
  type HistoryDialogueLine,
  OUTPUT_FORMATS,
  type OutputFormat,
  type TextToDialogueBody,
  type VoiceSegment,
} from '@parla/contracts';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { encodeAudio } from '../../platform/media/encode-audio';
import { assertAffordable, type Budget, chargeGeneration, finishStreamed, openBudget } from '../metering';
import { pronunciationRulesFor } from '../pronunciation-dictionaries';
import { rememberGeneratedAudio, traceGeneratedAudio } from '../provenance';
import {
  creditCost,
  prepareSpeech,
  recordHistory,
  renderSpeech,
  type SpeakOptions,
  type SpeechPlan,
  type SpeechResult,
  StreamedAudio,
  streamEncodingBoundMs,
  type TtsCaller,
  type TtsDeps,
  type TtsPlan,
  toClientError,
  workOf,
} from '../tts';

import { getModel } from '../voices';
import { type DialogueChunk, DialogueTimeline, joinChunks } from './dialogue.timeline';

export interface DialogueInput {
  outputFormat: OutputFormat;
  enableLogging: boolean;
  body: TextToDialogueBody;
}

/** Everything a dialogue needs, checked before anything is spent. */
interface DialoguePlan {
  /** Each line's voice, model and speech request. */
  lines: SpeechPlan[];
  /**
   * The generation as one: the lines joined by "\n", the first line's voice, the credits of every line.
   * It opens the budget and becomes the history item.
   */
  whole: TtsPlan;
  /** The lines as the history item keeps them (history/voices §3 "dialogue"). */
  dialogue: HistoryDialogueLine[];
}

export interface DialogueResult {
  audio: Buffer;
  contentType: string;
  historyItemId: string | undefined;
  characterCost: number;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
  voiceSegments: VoiceSegment[];
}

export interface DialogueStream {
  /** Audio bytes, or one JSON object per line of the dialogue with `timestamps`. */
  stream: Readable;
  contentType: string;
  historyItemId: string | undefined;
  characterCost: number;
}

/**
 * The checks of a dialogue, with no side effect: the model, the length of all the lines together, then
 * every line as text to speech checks it (voice, language, text), then the credits of the sum and the
 * plan's formats. One bad line refuses the whole dialogue before anything is spent.
 */
async function planDialogue(deps: TtsDeps, caller: TtsCaller, input: DialogueInput): Promise<DialoguePlan> {
  const { body } = input;
  const model = getModel(body.model_id, { external: deps.externalConfigured, store: deps.models });
  const characters = body.inputs.reduce((sum, line) => sum + line.text.length, 0);
  if (characters > model.maximum_text_length_per_request) {
    const message = `The lines are ${characters} characters long in all; ${model.model_id} accepts at most ${model.maximum_text_length_per_request}.`;
    throw new AppError('invalid_request', message, {
      errors: [{ loc: ['body', 'inputs'], msg: message, type: 'value_error' }],
    });
  }
  // The dialogue's stability and similarity are every line's voice settings (the rest stay the voice's).
  const lineSettings = {
    ...(typeof body.settings?.stability === 'number' ? { stability: body.settings.stability } : {}),
    ...(typeof body.settings?.similarity === 'number' ? { similarity_boost: body.settings.similarity } : {}),
  };
  // The dictionaries once for every line (issue 30): an unknown one is refused before anything is spent.
  const pronunciation = await pronunciationRulesFor(
    deps,
    caller.workspaceId,
    body.pronunciation_dictionary_locators,
  );
  // One line at a time, so the first bad line is the one refused.
  const lines: SpeechPlan[] = [];
  for (const [index, line] of body.inputs.entries()) {
    lines.push(
      await prepareSpeech(
        deps,
        caller,
        {
          voiceId: line.voice_id,
          pronunciation,
          body: {
            text: line.text,
            model_id: body.model_id,
            language_code: body.language_code,
            apply_text_normalization: body.apply_text_normalization,
            voice_settings: Object.keys(lineSettings).length > 0 ? lineSettings : null,
            // Each line its own variation pattern (sentence indexes start again at every line).
            seed: ((body.seed ?? 0) + index) % 4_294_967_296,
          },
        },
        ['inputs', index, 'text'],
      ),
    );
  }
  const characterCost = creditCost(model, characters);
  await assertAffordable(deps, caller, characterCost, input.outputFormat);
  const first = lines[0] as SpeechPlan;
  return {
    lines,
    whole: {
      ...first,
      text: body.inputs.map((line) => line.text).join('\n'),
      workspaceId: caller.workspaceId,
      characterCost,
      outputFormat: input.outputFormat,
      enableLogging: input.enableLogging,
      source: 'TTS',
    },
    dialogue: body.inputs.map(({ text, voice_id }, index) => ({
      text,
      voice_id,
      voice_name: lines[index]?.voice.name ?? voice_id,
    })),
  };
}

/** The raw PCM output rates ffmpeg can resample to (pcm_8000 … pcm_48000). */
const PCM_RATES = OUTPUT_FORMATS.filter((f) => f.startsWith('pcm_')).map((f) => Number(f.slice(4)));

/** The dialogue's sample rate: the first line's, or the next PCM rate above it. */
function dialogueRate(firstLineRate: number): number {
  return PCM_RATES.find((rate) => rate >= firstLineRate) ?? Math.max(...PCM_RATES);
}

/** A line's samples at the dialogue's rate: engines differ (eSpeak-NG 22.05 kHz, Flite 16 kHz…). */
async function atRate(speech: SpeechResult, rate: number): Promise<Int16Array> {
  if (speech.sampleRate === rate) return speech.samples;
  const pcm = await encodeAudio(
    { sampleRate: speech.sampleRate, channels: 1, samples: speech.samples },
    `pcm_${rate}` as OutputFormat,
  );
  // A copy: the buffer may sit at an odd offset of a larger one.
  return new Int16Array(
    pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength - (pcm.byteLength % 2)),
  );
}

/**
 * Speaks the lines in order, each in its voice, and places them on the dialogue's timeline. The next line
 * is spoken while the current one is handed out (more would wait in the engines' queue against their time
 * bound); a line that fails fails the dialogue.
 */
async function* speakDialogue(
  deps: TtsDeps,
  plan: DialoguePlan,
  options: SpeakOptions,
): AsyncGenerator<DialogueChunk> {
  const started: Promise<SpeechResult>[] = [];
  const start = (index: number) => {
    const line = plan.lines[index];
    if (!line || started[index]) return;
    started[index] = renderSpeech(deps.engines, line.request, options);
    // A rejection is handled when its turn comes; until then it must not count as unhandled.
    started[index]?.catch(() => undefined);
  };
  let timeline: DialogueTimeline | undefined;
  for (let index = 0; index < plan.lines.length; index += 1) {
    start(index);
    start(index + 1);
    const speech = await (started[index] as Promise<SpeechResult>);
    timeline ??= new DialogueTimeline(dialogueRate(speech.sampleRate), DIALOGUE_LINE_PAUSE_MS);
    const line = plan.lines[index] as SpeechPlan;
    yield timeline.add(
      {
        voiceId: line.voice.voice_id,
        samples: await atRate(speech, timeline.sampleRate),
        alignment: speech.alignment,
        normalizedAlignment: speech.normalizedAlignment,
      },
      index,
    );
  }
}

/** The dialogue's one history item (source TTS, with its lines), settling its credits. */
function keepDialogue(
  deps: TtsDeps,
  caller: TtsCaller,
  plan: DialoguePlan,
  budget: Budget,
  speech: Parameters<typeof recordHistory>[4],
  audio: Buffer,
  id: string,
): Promise<string> {
  return recordHistory(deps, caller, plan.whole, budget, speech, audio, id, plan.dialogue);
}

/**
 * Text to dialogue end to end (history/voices §5, §9): every line checked, ONE charge for all the
 * characters, the lines spoken in order with a short pause between them, encoded once, then one history
 * item (source TTS) that settles the credits and keeps the lines. Any failure refunds and keeps nothing.
 */
export async function textToDialogue(
  deps: TtsDeps,
  caller: TtsCaller,
  input: DialogueInput,
): Promise<DialogueResult> {
  const plan = await planDialogue(deps, caller, input);
  return chargeGeneration(
    deps,
    caller,
    workOf(plan.whole, 'dialogue'),
    async (budget, signal) => {
      // A failed line stops the lines started ahead of it (the signal).
      const chunks: DialogueChunk[] = [];
      for await (const chunk of speakDialogue(deps, plan, { tenant: caller.workspaceId, signal }))
        chunks.push(chunk);
      const sampleRate = chunks[0]?.sampleRate ?? 16_000;
      const whole = joinChunks(chunks);
      const audio = await encodeAudio(
        { sampleRate, channels: 1, samples: whole.samples },
        plan.whole.outputFormat,
      );
      const historyItemId = plan.whole.enableLogging
        ? await keepDialogue(deps, caller, plan, budget, { sampleRate, ...whole }, audio, newId())
        : await budget.settle().then(() => undefined);
      // Recognisable if it is played back to the installation (issue 26 item 7), fingerprinted after.
      rememberGeneratedAudio(
        deps,
        { workspaceId: caller.workspaceId, source: 'dialogue' },
        { sampleRate, samples: whole.samples },
      );
      return {
        audio,
        contentType: describeOutputFormat(plan.whole.outputFormat).contentType,
        historyItemId,
        characterCost: plan.whole.characterCost,
        alignment: whole.alignment,
        normalizedAlignment: whole.normalizedAlignment,
        voiceSegments: whole.voiceSegments,
      };
    },
    (error) => toClientError(deps, error),
  );
}

/**
 * A streamed dialogue (`/stream`, `/stream/with-timestamps`): the first line is spoken before the answer
 * starts, so a failure up to there is a normal error response; then each line goes out as soon as it is
 * spoken, through one encoder (StreamedAudio: raw audio, or one JSON object per line). A failure after that
 * ends the stream early, refunds the credits and keeps nothing.
 */
export async function streamTextToDialogue(
  deps: TtsDeps,
  caller: TtsCaller,
  input: DialogueInput,
  mode: 'audio' | 'timestamps',
): Promise<DialogueStream> {
  const plan = await planDialogue(deps, caller, input);
  const { outputFormat } = plan.whole;
  // ffmpeg loads while the budget is opened and the first line spoken.
  const body = new StreamedAudio(outputFormat, mode, streamEncodingBoundMs(plan.whole.text.length));
  let budget: Budget;
  try {
    budget = await openBudget(deps, caller, workOf(plan.whole, 'dialogue'));
  } catch (error) {
    body.abandon();
    throw error;
  }
  const cancel = new AbortController();
  const lines = speakDialogue(deps, plan, { tenant: caller.workspaceId, signal: cancel.signal });
  let first: DialogueChunk | undefined;
  try {
    first = (await lines.next()).value ?? undefined;
  } catch (error) {
    cancel.abort();
    body.abandon();
    await budget.refund();
    throw toClientError(deps, error);
  }
  const historyItemId = plan.whole.enableLogging ? newId() : undefined;
  finishStreamed(deps, budget, body, cancel, async () => {
    const chunks: DialogueChunk[] = [];
    const sampleRate = first?.sampleRate ?? 16_000;
    // What was sent is recognisable, a stream cut short included (issue 26 item 7).
    const sent = traceGeneratedAudio(deps, { workspaceId: caller.workspaceId, source: 'dialogue' });
    const handle = async (chunk: DialogueChunk) => {
      chunks.push(chunk);
      await body.write(chunk.samples, sampleRate, {
        alignment: chunk.alignment,
        normalized_alignment: chunk.normalizedAlignment,
        voice_segments: [chunk.segment],
      });
      sent.add({ sampleRate, samples: chunk.samples });
    };
    try {
      if (first) await handle(first);
      for await (const chunk of lines) await handle(chunk);
    } finally {
      sent.end();
    }
    // The SDK requires voice_segments on every line, the last one (audio only) too.
    const streamed = await body.finish({ voice_segments: [] });
    if (!historyItemId) return budget.settle();
    const whole = joinChunks(chunks);
    const audio =
      streamed ?? (await encodeAudio({ sampleRate, channels: 1, samples: whole.samples }, outputFormat));
    await keepDialogue(deps, caller, plan, budget, { sampleRate, ...whole }, audio, historyItemId);
  });
  return {
    stream: body.out,
    contentType: body.contentType,
    historyItemId,
    characterCost: plan.whole.characterCost,
  };
}
