import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeVoice } from '../../test/catalogue-fixture';
import { checkVoiceSafety, isCloneFlow, type VoiceSafetyMemory } from './voice-safety-rules';

const fresh: VoiceSafetyMemory = { loaded: false, seen: new Set() };
const ok = makeVoice({ voice_id: 'ok', safety_control: null });
const none = makeVoice({ voice_id: 'none', safety_control: 'NONE' });
const banned = makeVoice({ voice_id: 'ban', safety_control: 'BAN' });
const captcha = makeVoice({ voice_id: 'cap', safety_control: 'CAPTCHA' });

describe('checkVoiceSafety (history/voices §4 "Voice safety")', () => {
  it('opens nothing on the first load, whatever it holds, and remembers every voice', () => {
    const result = checkVoiceSafety([ok, banned, captcha], fresh, { cloneFlow: false });
    expect(result.blocked).toEqual([]);
    expect(result.captcha).toEqual([]);
    expect(result.memory.loaded).toBe(true);
    expect([...result.memory.seen].sort()).toEqual(['ban', 'cap', 'ok']);
  });

  it('opens voiceBlocked for a BAN voice and voiceCaptcha for a CAPTCHA voice not seen before', () => {
    const first = checkVoiceSafety([ok], fresh, { cloneFlow: false });
    const second = checkVoiceSafety([ok, none, banned, captcha], first.memory, { cloneFlow: false });
    expect(second.blocked.map((voice) => voice.voice_id)).toEqual(['ban']);
    expect(second.captcha.map((voice) => voice.voice_id)).toEqual(['cap']);
  });

  it('does not open again for a voice already seen, whether it was flagged then or later', () => {
    const first = checkVoiceSafety([ok, banned], fresh, { cloneFlow: false });
    const flaggedLater = { ...ok, safety_control: 'CAPTCHA' as const };
    const second = checkVoiceSafety([flaggedLater, banned], first.memory, { cloneFlow: false });
    expect(second.blocked).toEqual([]);
    expect(second.captcha).toEqual([]);
  });

  it('keeps the captcha dialog closed in the clone flow (creationType=cloneVoice), but not the blocked one', () => {
    const first = checkVoiceSafety([ok], fresh, { cloneFlow: false });
    const second = checkVoiceSafety([ok, banned, captcha], first.memory, { cloneFlow: true });
    expect(second.blocked.map((voice) => voice.voice_id)).toEqual(['ban']);
    expect(second.captcha).toEqual([]);
    // Seen in the clone flow, so it stays closed afterwards too.
    expect(checkVoiceSafety([ok, captcha], second.memory, { cloneFlow: false }).captcha).toEqual([]);
  });

  it('opens each flagged voice at most once over any sequence of loads', () => {
    const control = fc.constantFrom(null, 'NONE' as const, 'BAN' as const, 'CAPTCHA' as const);
    const load = fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), control }), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.array(load, { minLength: 1, maxLength: 6 }), fc.boolean(), (loads, cloneFlow) => {
        let memory: VoiceSafetyMemory = fresh;
        const opened: string[] = [];
        loads.forEach((entries, index) => {
          const voices = entries.map((entry) =>
            makeVoice({ voice_id: entry.id, safety_control: entry.control }),
          );
          const result = checkVoiceSafety(voices, memory, { cloneFlow });
          if (index === 0) expect(result.blocked.length + result.captcha.length).toBe(0);
          for (const voice of [...result.blocked, ...result.captcha]) opened.push(voice.voice_id);
          memory = result.memory;
        });
        expect(new Set(opened).size).toBe(opened.length);
      }),
    );
  });
});

describe('isCloneFlow', () => {
  it('reads creationType=cloneVoice from a query string or its params', () => {
    expect(isCloneFlow('?creationType=cloneVoice')).toBe(true);
    expect(isCloneFlow(new URLSearchParams({ creationType: 'cloneVoice' }))).toBe(true);
    expect(isCloneFlow('?creationType=designVoice')).toBe(false);
    expect(isCloneFlow('')).toBe(false);
  });
});
