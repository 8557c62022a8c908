import type { SpeakerSeparation, VoiceResponse } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { makeOwnVoice, makeSample } from '../../test/voices-fixture';
import {
  checkPvcDetails,
  checkPvcPlan,
  describePvcStage,
  formatSeconds,
  pickPvcSampleFiles,
  pvcLanguages,
  pvcStage,
  resumeStep,
  selectedSeconds,
  trainingProgress,
  trainingState,
} from './pvc-rules';

/** A professional clone: `seconds` of samples, verified or not, in a training state. */
function pvc({
  seconds = [],
  verified = false,
  state = 'not_started',
  progress = null,
}: {
  seconds?: number[];
  verified?: boolean;
  state?: string;
  progress?: number | null;
} = {}): VoiceResponse {
  return makeOwnVoice({
    voice_id: 'pv1',
    category: 'professional',
    samples: seconds.map((s, i) => makeSample({ sample_id: `s${i}`, duration_secs: s })),
    voice_verification: {
      requires_verification: true,
      is_verified: verified,
      verification_failures: [],
      verification_attempts_count: 0,
    },
    fine_tuning: {
      is_allowed_to_fine_tune: true,
      state: { eleven_multilingual_v2: state, parla_v1: state },
      verification_failures: [],
      verification_attempts_count: 0,
      manual_verification_requested: false,
      progress: progress === null ? null : { eleven_multilingual_v2: progress, parla_v1: progress },
    },
  });
}

const separated = (speakers: Record<string, number>, selected: string[]): SpeakerSeparation => ({
  voice_id: 'pv1',
  sample_id: 's0',
  status: 'completed',
  speakers: Object.fromEntries(
    Object.entries(speakers).map(([id, d]) => [id, { speaker_id: id, duration_secs: d, utterances: [] }]),
  ),
  selected_speaker_ids: selected,
});

describe('pvcStage: the badge of a professional clone', () => {
  it('is draft without enough audio, verifying with it, draft again once verified until trained', () => {
    expect(pvcStage(pvc())).toBe('draft');
    expect(pvcStage(pvc({ seconds: [12, 10] }))).toBe('draft');
    expect(pvcStage(pvc({ seconds: [20, 10] }))).toBe('verifying');
    expect(pvcStage(pvc({ seconds: [40], verified: true }))).toBe('draft');
    expect(describePvcStage(pvc({ seconds: [40], verified: true }))).toBe('Verified: start the training.');
  });

  it('follows the training: queued and running are training, then ready or failed', () => {
    expect(pvcStage(pvc({ verified: true, state: 'queued' }))).toBe('training');
    expect(pvcStage(pvc({ verified: true, state: 'fine_tuning', progress: 0.42 }))).toBe('training');
    expect(describePvcStage(pvc({ verified: true, state: 'fine_tuning', progress: 0.42 }))).toBe(
      'Training · 42 %',
    );
    expect(pvcStage(pvc({ verified: true, state: 'fine_tuned', progress: 1 }))).toBe('ready');
    expect(pvcStage(pvc({ verified: true, state: 'failed' }))).toBe('failed');
  });

  it('reads an unknown or missing state as not started, and clamps the progress', () => {
    expect(trainingState(makeOwnVoice({ fine_tuning: null }))).toBe('not_started');
    expect(trainingState(pvc({ state: 'something_new' }))).toBe('not_started');
    expect(trainingProgress(pvc({ progress: 1.7 }))).toBe(1);
    expect(trainingProgress(pvc())).toBe(0);
  });
});

describe('selectedSeconds and resumeStep', () => {
  const samples = [
    makeSample({ sample_id: 's0', duration_secs: 50 }),
    makeSample({ sample_id: 's1', duration_secs: 5 }),
  ];

  it('counts the selected speakers of a separated sample and the whole of the others', () => {
    expect(selectedSeconds(samples, {})).toBe(55);
    expect(selectedSeconds(samples, { s0: separated({ speaker_0: 20, speaker_1: 25 }, ['speaker_1']) })).toBe(
      30,
    );
    expect(
      selectedSeconds(samples, {
        s0: separated({ speaker_0: 20, speaker_1: 25 }, ['speaker_0', 'speaker_1']),
      }),
    ).toBe(50);
    // Separated but nothing selected: the server trains on the whole sample.
    expect(selectedSeconds(samples, { s0: separated({ speaker_0: 20 }, []) })).toBe(55);
  });

  it('opens where the flow stopped', () => {
    expect(resumeStep(pvc(), {})).toBe('samples');
    expect(
      resumeStep(pvc({ seconds: [50] }), { s0: separated({ speaker_0: 10, speaker_1: 40 }, ['speaker_0']) }),
    ).toBe('samples');
    expect(
      resumeStep(pvc({ seconds: [50] }), { s0: { ...separated({}, []), status: 'pending', speakers: null } }),
    ).toBe('speakers');
    expect(resumeStep(pvc({ seconds: [50] }), {})).toBe('verify');
    expect(resumeStep(pvc({ seconds: [50], verified: true }), {})).toBe('train');
    expect(resumeStep(pvc({ seconds: [50], verified: true, state: 'fine_tuned' }), {})).toBe('train');
  });
});

describe('checkPvcPlan', () => {
  const plan = {
    can_use_professional_voice_cloning: true,
    professional_voice_limit: 1,
    professional_voice_slots_used: 0,
  };

  it('allows a plan with professional cloning and a slot left', () => {
    expect(checkPvcPlan(plan)).toEqual({ allowed: true });
  });

  it('refuses a plan without professional cloning, and one whose slots are used', () => {
    expect(checkPvcPlan({ ...plan, can_use_professional_voice_cloning: false })).toMatchObject({
      allowed: false,
      reason: 'not_in_plan',
      message: 'Professional voice cloning starts with the Creator plan.',
    });
    expect(checkPvcPlan({ ...plan, professional_voice_slots_used: 1 })).toMatchObject({
      allowed: false,
      reason: 'no_slot_left',
      message:
        'Your plan allows 1 professional voice clone, and it is in use. Delete one or upgrade to add another.',
    });
    expect(
      checkPvcPlan({ ...plan, professional_voice_limit: 3, professional_voice_slots_used: 3 }),
    ).toMatchObject({
      message: expect.stringContaining('allows 3 professional voice clones, and all are in use'),
    });
  });
});

describe('the details and the files', () => {
  it('names every field with a problem', () => {
    expect(checkPvcDetails({ name: ' ', language: 'en', description: '', consent: false })).toEqual({
      name: 'Give the voice a name.',
      consent: 'Confirm that this is your own voice, or that you have the consent of its speaker.',
    });
    expect(
      checkPvcDetails({ name: 'x'.repeat(101), language: 'e', description: 'd'.repeat(501), consent: true }),
    ).toEqual({
      name: 'Keep the name to 100 characters.',
      language: 'Choose the language the voice speaks.',
      description: 'Keep the description to 500 characters.',
    });
    expect(checkPvcDetails({ name: 'Me', language: 'en', description: '', consent: true })).toEqual({});
  });

  it('offers English first, then the other languages the voices speak by name', () => {
    const languages = pvcLanguages();
    expect(languages[0]).toEqual({ code: 'en', name: 'English' });
    expect(languages.map((l) => l.code)).toContain('de');
    expect(new Set(languages.map((l) => l.code)).size).toBe(languages.length);
  });

  it('keeps audio files up to 50 MB, eight at a time, and says why others are left out', () => {
    const file = (name: string, size = 1000, type = 'audio/wav') => ({ name, size, type });
    const picked = pickPvcSampleFiles([
      file('notes.txt', 10, 'text/plain'),
      file('empty.wav', 0),
      file('huge.wav', 51 * 1024 * 1024),
      ...Array.from({ length: 9 }, (_, i) => file(`take-${i}.wav`)),
    ]);
    expect(picked.files.map((f) => f.name)).toEqual(Array.from({ length: 8 }, (_, i) => `take-${i}.wav`));
    expect(picked.problems).toEqual([
      expect.stringMatching(/^notes\.txt is not an audio file/),
      'empty.wav is empty.',
      'huge.wav is 51.0 MB; a sample may be at most 50 MB.',
      'At most 8 files can be sent at once; take-8.wav was left out.',
    ]);
  });

  it('formats lengths as people read them', () => {
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(42.4)).toBe('42 s');
    expect(formatSeconds(185)).toBe('3 min 05 s');
    expect(formatSeconds(3720)).toBe('1 h 02 min');
  });
});
