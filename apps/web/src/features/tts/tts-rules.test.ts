import type { VoiceResponse } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { makeModel } from '../../test/catalogue-fixture';
import {
  defaultModelFor,
  defaultModelId,
  defaultVoiceOf,
  estimateCredits,
  generationFileName,
  isGenerateShortcut,
  modelDisplayName,
  modelSpeaksVoice,
  ownModelId,
  ownModels,
  pickStored,
  remainingCredits,
  settingLimits,
} from './tts-rules';

const voice = (name: string, labels: Record<string, string>, description = ''): VoiceResponse =>
  ({ voice_id: name, name, labels, description }) as unknown as VoiceResponse;

describe('text-to-speech page rules', () => {
  it('estimates credits as the server charges them', () => {
    expect(estimateCredits('', { token_cost_factor: 1 })).toBe(0);
    expect(estimateCredits('Hello', { token_cost_factor: 1 })).toBe(5);
    expect(estimateCredits('Hello', { token_cost_factor: 0.5 })).toBe(3);
    expect(estimateCredits('H', { token_cost_factor: 0.5 })).toBe(1);
  });

  it('counts the credits left; -1 stays unlimited', () => {
    expect(remainingCredits({ character_count: 300, character_limit: 10_000 })).toBe(9_700);
    expect(remainingCredits({ character_count: 12_000, character_limit: 10_000 })).toBe(0);
    expect(remainingCredits({ character_count: 5, character_limit: -1 })).toBe(-1);
  });

  it('keeps a stored choice only while it is offered', () => {
    expect(pickStored('b', ['a', 'b'], 'a')).toBe('b');
    expect(pickStored('gone', ['a', 'b'], 'b')).toBe('b');
    expect(pickStored(null, ['a', 'b'], 'z')).toBe('a');
    expect(pickStored(null, [], 'z')).toBeUndefined();
  });

  it('offers Parla’s own models, and reads a public id as the model it is an alias of (issue 26 item 7)', () => {
    const models = [
      makeModel({ model_id: 'parla_v1', name: 'Parla v1' }),
      makeModel({ model_id: 'parla_tags_v1', name: 'Parla v1 with audio tags' }),
      makeModel({
        model_id: 'eleven_multilingual_v2',
        name: 'Parla v1 (alias eleven_multilingual_v2)',
        alias_of: 'parla_v1',
      }),
      makeModel({
        model_id: 'eleven_v3',
        name: 'Parla v1 with audio tags (alias eleven_v3)',
        alias_of: 'parla_tags_v1',
      }),
    ];
    expect(ownModels(models).map((m) => m.model_id)).toEqual(['parla_v1', 'parla_tags_v1']);
    expect(ownModelId(models, 'eleven_multilingual_v2')).toBe('parla_v1');
    expect(ownModelId(models, 'eleven_v3')).toBe('parla_tags_v1');
    expect(ownModelId(models, 'parla_v1')).toBe('parla_v1');
    expect(ownModelId(models, 'not_listed')).toBe('not_listed');
    expect(ownModelId(models, null)).toBeNull();
    // A generation made with a public id is shown under its Parla model's name.
    expect(modelDisplayName(models, 'eleven_v3')).toBe('Parla v1 with audio tags');
    expect(modelDisplayName(models, 'parla_v1')).toBe('Parla v1');
    expect(modelDisplayName(models, 'gone_v0')).toBe('gone_v0');
    expect(defaultModelId).toBe('parla_neural_v1');
  });

  it('starts with a neural voice and the neural model, and the classic model for a voice it does not speak', () => {
    const neural = {
      ...voice('Sarah', { language: 'en' }),
      high_quality_base_model_ids: ['parla_neural_v1', 'parla_v1'],
    };
    const classic = { ...voice('Alan', { language: 'en' }), high_quality_base_model_ids: ['parla_v1'] };
    const own = { ...voice('Mine', { language: 'en' }), high_quality_base_model_ids: [] };
    expect(defaultVoiceOf([classic, neural, own])?.name).toBe('Sarah');
    expect(defaultVoiceOf([classic, own])?.name).toBe('Alan');
    const offered = ['parla_neural_v1', 'parla_neural_fast_v1', 'parla_v1'];
    expect(defaultModelFor(offered, neural)).toBe('parla_neural_v1');
    expect(defaultModelFor(offered, classic)).toBe('parla_v1');
    expect(defaultModelFor(offered, own)).toBe('parla_v1');
    // A server whose neural model is unavailable does not offer it: the classic model.
    expect(defaultModelFor(['parla_neural_fast_v1', 'parla_v1'], neural)).toBe('parla_v1');
    // The neural model speaks only the voices that list it.
    const model = { model_id: 'parla_neural_v1', languages: [{ language_id: 'en', name: 'English' }] };
    expect(modelSpeaksVoice(model, neural)).toBe(true);
    expect(modelSpeaksVoice(model, classic)).toBe(false);
    expect(modelSpeaksVoice(model, own)).toBe(false);
  });

  it('knows which models speak a voice’s language', () => {
    const english = { model_id: 'parla_v1', languages: [{ language_id: 'en', name: 'English' }] };
    expect(modelSpeaksVoice(english, voice('Ryan', { language: 'en' }))).toBe(true);
    expect(modelSpeaksVoice(english, voice('Lucía', { language: 'es' }))).toBe(false);
    expect(modelSpeaksVoice(english, voice('Any', {}))).toBe(true);
  });

  it('generates on Ctrl+Enter or ⌘+Enter, not on Enter alone or while composing', () => {
    const key = (over: Partial<KeyboardEvent>) => ({
      key: 'Enter',
      ctrlKey: false,
      metaKey: false,
      isComposing: false,
      ...over,
    });
    expect(isGenerateShortcut(key({ ctrlKey: true }))).toBe(true);
    expect(isGenerateShortcut(key({ metaKey: true }))).toBe(true);
    expect(isGenerateShortcut(key({}))).toBe(false);
    expect(isGenerateShortcut(key({ ctrlKey: true, isComposing: true }))).toBe(false);
    expect(isGenerateShortcut(key({ ctrlKey: true, key: 'a' }))).toBe(false);
  });

  it('names a download after the voice, the first words and the time, with safe characters only', () => {
    const name = generationFileName({
      voice_name: 'Lucía',
      text: '¿Qué tal? Hola / mundo: "ok"',
      date_unix: 0,
    });
    // Letters of every script stay (issue 26 item 7: "Lucía" was saved as "Luca").
    expect(name).toBe('Lucía_Qué_tal_Hola_mundo_19700101-000000.mp3');
    expect(generationFileName({ voice_name: '', text: '', date_unix: 0 }, 'wav')).toBe('19700101-000000.wav');
  });

  it('disables similarity for premade voices and the external model, style and boost where the model cannot', () => {
    const parla = {
      model_id: 'eleven_multilingual_v2',
      name: 'Parla v1 (alias eleven_multilingual_v2)',
      alias_of: 'parla_v1',
      can_use_style: true,
      can_use_speaker_boost: true,
    };
    expect(settingLimits(parla, { category: 'cloned' })).toEqual({
      similarity: null,
      style: null,
      speakerBoost: null,
    });
    expect(settingLimits(parla, { category: 'premade' }).similarity).toMatch(/premade voices sound the same/);
    const external = { ...parla, model_id: 'parla_external_v1', name: 'External', alias_of: null };
    expect(settingLimits(external, { category: 'generated' }).similarity).toMatch(/external speech server/);
    const plain = { ...parla, name: 'Plain', can_use_style: false, can_use_speaker_boost: false };
    expect(settingLimits(plain, { category: 'cloned' })).toEqual({
      similarity: null,
      style: 'Plain has no style exaggeration.',
      speakerBoost: 'Plain has no speaker boost.',
    });
  });
});
