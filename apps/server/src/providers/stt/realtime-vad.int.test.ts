// @postgres-leg skip: the voice-activity child process only; it touches no database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { fliteSpeech } from '../../test/test-signals';
import {
  openRealtimeVoiceActivity,
  setVoiceActivityIdleExit,
  stopRealtimeVoiceActivity,
  voiceActivityProcess,
} from './realtime-vad';
import type { RealtimeVadUpdate, RealtimeVoiceActivity } from './stt-provider';

/** Every test here runs the real voice-activity model: skipped, with the reason, where it is unavailable. */
const noModel = modelsUnavailable('silero-vad');
beforeEach((context) => skipWithout(context, noModel));

/*
 * The realtime voice-activity process (issue 26 item 9): the detectors of realtime transcription sessions
 * live in one child process, not in the server's. It finds speech as the thread did, holds a detector only
 * while a session is open, and exits once no session is left (what it held goes back to the system);
 * a process that dies fails the sessions it served, and the next session starts a new one.
 */

const RATE = 16_000;
let speech: Int16Array;
const config = { threshold: 0.5, minSpeechSecs: 0.25, minSilenceSecs: 0.5 };

beforeAll(async () => {
  stopRealtimeVoiceActivity();
  setVoiceActivityIdleExit(300);
  const spoken = await fliteSpeech('slt', 'The weather is nice today and the children are playing.');
  expect(spoken.sampleRate).toBe(RATE);
  speech = spoken.samples;
}, 60_000);
afterAll(() => {
  setVoiceActivityIdleExit();
  stopRealtimeVoiceActivity();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number | undefined) => {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Feeds half a second of silence, the speech, then a second of silence in 100 ms chunks. */
async function feed(vad: RealtimeVoiceActivity): Promise<RealtimeVadUpdate['segments']> {
  const audio = new Int16Array(RATE / 2 + speech.length + RATE);
  audio.set(speech, RATE / 2);
  const segments: RealtimeVadUpdate['segments'] = [];
  for (let at = 0; at < audio.length; at += RATE / 10) {
    const update = await vad.accept(audio.slice(at, at + RATE / 10));
    segments.push(...update.segments);
  }
  return segments;
}

describe('the realtime voice-activity process', () => {
  it('finds the speech of each session; exits once its last session closed', async () => {
    const [a, b] = await Promise.all([openRealtimeVoiceActivity(config), openRealtimeVoiceActivity(config)]);
    const running = voiceActivityProcess();
    expect(running?.sessions).toBe(2);
    const [found, alsoFound] = await Promise.all([
      feed(a as RealtimeVoiceActivity),
      feed(b as RealtimeVoiceActivity),
    ]);
    for (const segments of [found, alsoFound]) {
      // One segment, about where the speech is (the detector reaches back a little before it).
      expect(segments).toHaveLength(1);
      const [segment] = segments;
      expect(Math.abs((segment?.start ?? 0) - RATE / 2)).toBeLessThan(0.4 * RATE);
      expect(Math.abs((segment?.end ?? 0) - (RATE / 2 + speech.length))).toBeLessThan(0.6 * RATE);
    }
    a?.close();
    expect(voiceActivityProcess()?.sessions).toBe(1);
    b?.close();
    b?.close();
    expect(voiceActivityProcess()?.sessions).toBe(0);
    // No session left: the process is let go, and ends.
    const deadline = Date.now() + 10_000;
    while (alive(running?.pid)) {
      if (Date.now() > deadline) throw new Error('the voice-activity process did not exit');
      await sleep(50);
    }
    expect(voiceActivityProcess()).toBeUndefined();
    // The next session starts a new one, whose reused or new detector starts afresh.
    const c = await openRealtimeVoiceActivity(config);
    expect(voiceActivityProcess()?.pid).not.toBe(running?.pid);
    expect(await feed(c)).toHaveLength(1);
    c.close();
  });

  it('a detector reused by a later session starts afresh', async () => {
    const first = await openRealtimeVoiceActivity(config);
    // Closed in the middle of the speech: its detector is reset before the next session gets it.
    await first.accept(speech.slice(0, speech.length / 2));
    first.close();
    const second = await openRealtimeVoiceActivity(config);
    const segments = await feed(second);
    expect(segments).toHaveLength(1);
    expect(Math.abs((segments[0]?.start ?? 0) - RATE / 2)).toBeLessThan(0.4 * RATE);
    second.close();
  });

  it('a process that dies fails the sessions it served; the next session starts a new one', async () => {
    const session = await openRealtimeVoiceActivity(config);
    const pid = voiceActivityProcess()?.pid;
    process.kill(pid as number, 'SIGKILL');
    await expect(feed(session)).rejects.toThrow(/voice-activity process stopped/);
    session.close();
    const next = await openRealtimeVoiceActivity(config);
    expect(voiceActivityProcess()?.pid).not.toBe(pid);
    expect(await feed(next)).toHaveLength(1);
    next.close();
  });
});
