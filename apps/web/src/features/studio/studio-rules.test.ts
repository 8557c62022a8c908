import type { StudioProgressEvent } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  blockAt,
  blockTimes,
  createSseReader,
  insertBreak,
  isPlayShortcut,
  isRegenerateShortcut,
  progressShare,
  setVoiceOfSelection,
  toBlockInputs,
  unspeakableVoiceMessage,
  voicesForModel,
} from './studio-rules';

describe('setVoiceOfSelection (select text → change voice)', () => {
  const nodes = [{ text: 'He said hello to her.', voice_id: 'narrator' }];

  it('splits the node in three, the selected words in the new voice', () => {
    expect(setVoiceOfSelection(nodes, 0, 8, 13, 'hero')).toEqual([
      { text: 'He said ', voice_id: 'narrator' },
      { text: 'hello', voice_id: 'hero' },
      { text: ' to her.', voice_id: 'narrator' },
    ]);
  });

  it('changes the whole node for an empty selection, and joins neighbours of one voice', () => {
    expect(setVoiceOfSelection(nodes, 0, 4, 4, 'hero')).toEqual([
      { text: 'He said hello to her.', voice_id: 'hero' },
    ]);
    const split = setVoiceOfSelection(nodes, 0, 8, 13, 'hero');
    // Giving the middle back to the narrator makes one node again.
    expect(setVoiceOfSelection(split, 1, 0, 0, 'narrator')).toEqual(nodes);
  });

  it('takes a selection made backwards and one at the very start', () => {
    expect(setVoiceOfSelection(nodes, 0, 7, 0, 'hero')).toEqual([
      { text: 'He said', voice_id: 'hero' },
      { text: ' hello to her.', voice_id: 'narrator' },
    ]);
  });
});

describe('insertBreak', () => {
  it('puts the pause tag at the cursor with a space either side', () => {
    expect(insertBreak('One.Two.', 4, 1)).toEqual({ text: 'One. <break time="1s" /> Two.', caret: 25 });
    expect(insertBreak('One. ', 5, 0.5).text).toBe('One. <break time="0.5s" />');
  });
});

describe('toBlockInputs', () => {
  it('keeps block ids, drops empty blocks and nodes, and sends tts nodes', () => {
    expect(
      toBlockInputs([
        { key: 'b1', block_id: 'b1', sub_type: 'h1', nodes: [{ text: 'Title', voice_id: 'v1' }] },
        { key: 'n1', block_id: null, sub_type: 'p', nodes: [{ text: '', voice_id: 'v1' }] },
        {
          key: 'n2',
          block_id: null,
          sub_type: 'p',
          nodes: [
            { text: 'A', voice_id: 'v2' },
            { text: '', voice_id: 'v3' },
            { text: 'B', voice_id: 'v2' },
          ],
        },
      ]),
    ).toEqual([
      { sub_type: 'h1', block_id: 'b1', nodes: [{ type: 'tts_node', text: 'Title', voice_id: 'v1' }] },
      { sub_type: 'p', nodes: [{ type: 'tts_node', text: 'AB', voice_id: 'v2' }] },
    ]);
  });
});

describe('blockTimes and blockAt (play from the cursor, the paragraph being spoken)', () => {
  // Two blocks of 4 and 2 characters spoken at one character a second.
  const alignment = {
    characters: ['a', 'b', 'c', 'd', 'e', 'f'],
    character_start_times_seconds: [0, 1, 2, 3, 4.4, 5.4],
    character_end_times_seconds: [1, 2, 3, 4, 5.4, 6.4],
  };
  const blocks = [{ nodes: [{ text: 'abcd', voice_id: 'v' }] }, { nodes: [{ text: 'ef', voice_id: 'v' }] }];

  it('finds where each paragraph starts and ends', () => {
    expect(blockTimes(blocks, [alignment])).toEqual([
      { start: 0, end: 4 },
      { start: 4.4, end: 6.4 },
    ]);
    expect(blockTimes(blocks, [])).toBeNull();
  });

  it('answers the paragraph being spoken at a time', () => {
    const times = blockTimes(blocks, [alignment]);
    expect(blockAt(times, 0)).toBe(0);
    expect(blockAt(times, 4.2)).toBe(0);
    expect(blockAt(times, 4.4)).toBe(1);
    expect(blockAt(times, 60)).toBe(1);
    expect(blockAt(null, 1)).toBe(-1);
  });
});

describe('progressShare', () => {
  const event = (chapters: StudioProgressEvent['chapters']): StudioProgressEvent => ({
    project_id: 'p',
    state: 'converting',
    chapters,
    latest_snapshot_id: null,
  });

  it('is the mean of the chapters, a finished one counting whole; or one chapter’s', () => {
    const e = event([
      { chapter_id: 'a', state: 'converting', conversion_progress: 0.5, last_conversion_error: null },
      { chapter_id: 'b', state: 'default', conversion_progress: null, last_conversion_error: null },
    ]);
    expect(progressShare(e)).toBe(0.75);
    expect(progressShare(e, 'a')).toBe(0.5);
    expect(progressShare(e, 'b')).toBeNull();
    expect(progressShare({ ...e, state: 'default', chapters: [] })).toBe(1);
  });
});

describe('createSseReader', () => {
  it('answers whole events across chunks and skips comments', () => {
    const read = createSseReader();
    expect(read('event: progress\ndata: {"a"')).toEqual([]);
    expect(read(':1}\n\n: still converting\n\nevent: progress\r\ndata: 2\r\n\r\n')).toEqual([
      { event: 'progress', data: '{"a":1}' },
      { event: 'progress', data: '2' },
    ]);
  });
});

describe('the shortcuts', () => {
  it('plays with Ctrl/Alt+Space and regenerates with Ctrl/Cmd+Enter, not with plain typing keys', () => {
    expect(isPlayShortcut({ key: ' ', code: 'Space', ctrlKey: true, altKey: false, metaKey: false })).toBe(
      true,
    );
    expect(isPlayShortcut({ key: ' ', code: 'Space', ctrlKey: false, altKey: true, metaKey: false })).toBe(
      true,
    );
    expect(isPlayShortcut({ key: ' ', code: 'Space', ctrlKey: false, altKey: false, metaKey: false })).toBe(
      false,
    );
    expect(isRegenerateShortcut({ key: 'Enter', ctrlKey: false, metaKey: true })).toBe(true);
    expect(isRegenerateShortcut({ key: 'Enter', ctrlKey: false, metaKey: false })).toBe(false);
    expect(isRegenerateShortcut({ key: 'Enter', ctrlKey: true, metaKey: false, isComposing: true })).toBe(
      false,
    );
  });
});

describe('the voices a model speaks (the voice pickers of a block or project)', () => {
  const en = [{ language_id: 'en', name: 'English' }];
  const models = [
    { model_id: 'parla_neural_fast_v1', name: 'Parla Neural Fast v1', languages: en },
    { model_id: 'parla_v1', name: 'Parla v1', languages: [...en, { language_id: 'de', name: 'German' }] },
  ];
  const sarah = {
    voice_id: 'sarah',
    name: 'Sarah',
    labels: { language: 'en' },
    high_quality_base_model_ids: ['parla_neural_v1', 'parla_v1'],
  };
  const ryan = {
    voice_id: 'ryan',
    name: 'Ryan',
    labels: { language: 'en' },
    high_quality_base_model_ids: ['parla_neural_v1', 'parla_neural_fast_v1', 'parla_v1'],
  };
  const voices = [sarah, ryan];

  it('offers under Piper only the voices that list it, under the classic model every voice of its languages', () => {
    expect(voicesForModel(voices, models, 'parla_neural_fast_v1').map((v) => v.name)).toEqual(['Ryan']);
    expect(voicesForModel(voices, models, 'parla_v1').map((v) => v.name)).toEqual(['Sarah', 'Ryan']);
  });

  it('flags a voice the model it now speaks with cannot speak, and judges nothing it does not know', () => {
    expect(unspeakableVoiceMessage('sarah', voices, models, 'parla_v1')).toBeNull();
    expect(unspeakableVoiceMessage('sarah', voices, models, 'parla_neural_fast_v1')).toBe(
      'Parla Neural Fast v1 cannot speak with Sarah. Pick one of the voices it speaks.',
    );
    expect(unspeakableVoiceMessage('ryan', voices, models, 'parla_neural_fast_v1')).toBeNull();
    // The models not loaded yet, or a voice since deleted: the server's conversion says.
    expect(unspeakableVoiceMessage('sarah', voices, [], 'parla_neural_fast_v1')).toBeNull();
    expect(voicesForModel(voices, [], 'parla_neural_fast_v1')).toHaveLength(2);
    expect(unspeakableVoiceMessage('gone', voices, models, 'parla_neural_fast_v1')).toBeNull();
  });
});
