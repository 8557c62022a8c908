import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineJob } from '../engines/engine-protocol';
import { readWindow } from './moonshine-engine';
import { isNarrowband, MoonshineStt, recogniserSize, type SttEngines } from './moonshine-stt';
import type { SttEngineRequest } from './stt-engine-protocol';

/*
 * Telephone speech (issue 26 item 8, docs/decisions/0017-telephone-speech.md): the default model hears a
 * source sampled at 8 kHz or less with the accurate recogniser, and reads more before each segment.
 */

describe('the recogniser a model runs', () => {
  it('is the accurate one for the fast (default) model on narrowband sources only', () => {
    expect(recogniserSize('fast', 8_000)).toBe('base');
    expect(recogniserSize('fast', 6_000)).toBe('base');
    expect(recogniserSize('fast', 11_025)).toBe('tiny');
    expect(recogniserSize('fast', 16_000)).toBe('tiny');
    expect(recogniserSize('fast', 44_100)).toBe('tiny');
    // A stream that states no rate is taken as wideband.
    expect(recogniserSize('fast', undefined)).toBe('tiny');
    expect(recogniserSize('accurate', 8_000)).toBe('base');
    expect(recogniserSize('accurate', 48_000)).toBe('base');
    expect(isNarrowband(0)).toBe(false);
  });

  it('reads 0.3 s before a narrowband segment and 0.15 s before a wideband one', () => {
    const segment = { start: 16_000, end: 32_000 };
    expect(readWindow(segment, false)).toEqual({ from: 16_000 - 2_400, to: 32_000 + 3_200 });
    expect(readWindow(segment, true)).toEqual({ from: 16_000 - 4_800, to: 32_000 + 3_200 });
    // Never before the file's start.
    expect(readWindow({ start: 1_000, end: 9_000 }, true).from).toBe(0);
  });
});

/** Engines that answer from a script and keep the requests: the provider's choices, without a model. */
function recordingEngines(): SttEngines & { requests: SttEngineRequest[] } {
  const requests: SttEngineRequest[] = [];
  return {
    size: 2,
    requests,
    async run(job: EngineJob) {
      const request = (job as { task: 'stt'; request: SttEngineRequest }).request;
      requests.push(request);
      if (request.kind === 'vad')
        return { segments: [{ start: request.from + 4_000, end: request.from + 20_000 }], next: request.to };
      if (request.kind === 'decode')
        return { segments: request.segments.map(() => ({ text: 'Hello there.', words: [] })), events: [] };
      throw new Error(`unexpected ${request.kind}`);
    },
  };
}

/** The engines here are fakes that record what they are asked: no model file is needed. */
const everyModel = { status: () => ({ available: true, reason: null }) };

describe('MoonshineStt on telephone audio', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narrowband-test-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Two seconds of a tone, in the given rate and codec. */
  function tone(name: string, rate: number, codec: string): string {
    const file = path.join(dir, name);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-nostdin',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=${rate}:duration=2`,
      '-c:a',
      codec,
      '-y',
      file,
    ]);
    return file;
  }

  const decodes = (engines: { requests: SttEngineRequest[] }) =>
    engines.requests.filter((r): r is Extract<SttEngineRequest, { kind: 'decode' }> => r.kind === 'decode');

  it('hears an 8 kHz μ-law file with the accurate recogniser and the narrowband window', {
    timeout: 30_000,
  }, async () => {
    const engines = recordingEngines();
    const heard = await new MoonshineStt(engines, undefined, everyModel).transcribeFile({
      file: tone('call.wav', 8_000, 'pcm_mulaw'),
      model: 'fast',
      timestamps: 'none',
      tenant: 't',
    });
    expect(heard.segments.map((s) => s.text)).toEqual(['Hello there.']);
    // Decoded to the recogniser's 16 kHz like any other source: 2 s of audio.
    expect(heard.durationSecs).toBeCloseTo(2, 1);
    expect(decodes(engines).map((d) => [d.size, d.narrowband])).toEqual([['base', true]]);
  });

  it('keeps the fast recogniser and the usual window for a 16 kHz file', { timeout: 30_000 }, async () => {
    const engines = recordingEngines();
    await new MoonshineStt(engines, undefined, everyModel).transcribeFile({
      file: tone('wide.wav', 16_000, 'pcm_s16le'),
      model: 'fast',
      timestamps: 'none',
      tenant: 't',
    });
    expect(decodes(engines).map((d) => [d.size, d.narrowband])).toEqual([['tiny', false]]);
  });
});
