/**
 * The neural models loaded at an engine child's start, off the request path (issue 27 item 4: "each
 * session created once and kept warm"): the pool gives a new child this work first (engine-pool.ts,
 * `warmUp`), so the first real request neither pays the model's load (Kokoro ~0.5–1.3 s, Piper ~0.6 s,
 * several times that on a loaded machine) nor has it counted against its time bound. Each model the
 * store holds is loaded and speaks one word; a model the store marks unavailable is left alone (its
 * requests fail with the store's reason, as before).
 */
import { modelFiles } from '../../../platform/models/model-store';
import type { EngineSynthesisRequest } from '../tts-provider';
import { loadKokoro, synthesizeWithKokoro } from './kokoro-engine';
import { PIPER_VOICE_MODELS } from './neural-model-files';
import { loadPiper, synthesizeWithPiper } from './piper-engine';

/** What one model's warm-up did: its load and its first (tiny) synthesis, in ms, or why it was skipped. */
export interface ModelWarmUp {
  model: string;
  loadMs?: number;
  firstSynthesisMs?: number;
  skipped?: string;
  error?: string;
}

/** The task that asks an engine thread to warm its neural models (engine-thread.ts). */
export interface WarmUpRequest {
  warmUp: true;
}

const WARM_UP_TEXT = 'Hi.';

async function warm(
  model: string,
  load: () => Promise<unknown>,
  speak: (request: EngineSynthesisRequest) => Promise<unknown>,
  request: EngineSynthesisRequest,
): Promise<ModelWarmUp> {
  try {
    let started = performance.now();
    await load();
    const loadMs = Math.round(performance.now() - started);
    started = performance.now();
    await speak(request);
    return { model, loadMs, firstSynthesisMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { model, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Loads every neural model the store holds (one after the other: the child has one engine thread). */
export async function warmNeuralEngines(): Promise<ModelWarmUp[]> {
  const report: ModelWarmUp[] = [];
  const kokoro = modelFiles('kokoro-82m');
  if (kokoro.available)
    report.push(
      await warm('kokoro-82m', loadKokoro, synthesizeWithKokoro, {
        engine: 'kokoro',
        voice: 'af_heart',
        text: WARM_UP_TEXT,
      }),
    );
  else report.push({ model: 'kokoro-82m', skipped: kokoro.reason });
  for (const [voice, id] of Object.entries(PIPER_VOICE_MODELS)) {
    const piper = modelFiles(id);
    if (piper.available)
      report.push(
        await warm(id, () => loadPiper(voice), synthesizeWithPiper, {
          engine: 'piper',
          voice,
          text: WARM_UP_TEXT,
        }),
      );
    else report.push({ model: id, skipped: piper.reason });
  }
  return report;
}
