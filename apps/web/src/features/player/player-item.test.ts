import { describe, expect, it } from 'vitest';
import { makeVoice } from '../../test/catalogue-fixture';
import { makeHistoryItem } from '../../test/history-fixture';
import { generationPlayback, getHistoryItemId, historyItemPlayback } from './player-item';

describe('player items', () => {
  it('plays a stored history item from its audio route, with the bearer token', () => {
    const item = makeHistoryItem({ history_item_id: 'h/1', voice_name: 'Adam', duration_ms: 2500 });
    const [playerItem, source] = historyItemPlayback(item, 'adam.mp3');
    expect(playerItem).toEqual({
      id: 'h/1',
      fileName: 'adam.mp3',
      type: 'speechHistoryItem',
      loaded: true,
      player: {
        title: 'Adam',
        description: item.text,
        voice_id: item.voice_id,
        voice_name: 'Adam',
        duration: 2500,
      },
      autoStart: true,
    });
    expect(source).toEqual({ kind: 'url', url: '/v1/history/h%2F1/audio', authenticated: true });
  });

  it('plays a new generation from its stream, as the content type of the format asked for', () => {
    const response = new Response(new Uint8Array([1]));
    const voice = makeVoice({ voice_id: 'sarah', name: 'Sarah', labels: { language: 'en' } });
    const [playerItem, source] = generationPlayback(
      { response, historyItemId: 'h9' },
      { outputFormat: 'mp3_44100_128', fileName: 'a.mp3', title: 'Sarah', text: 'Hi.', voice },
    );
    expect(playerItem).toEqual({
      id: 'h9',
      fileName: 'a.mp3',
      type: 'text-to-speech',
      loaded: false,
      player: { title: 'Sarah', description: 'Hi.', voice_id: 'sarah', voice_name: 'Sarah', language: 'en' },
      autoStart: true,
    });
    expect(source).toEqual({ kind: 'stream', response, mimeType: 'audio/mpeg' });
  });

  it('plays a conversion as speech to speech, its length known from the input', () => {
    const [playerItem] = generationPlayback(
      { response: new Response(null), historyItemId: 'h2' },
      {
        outputFormat: 'mp3_44100_128',
        fileName: 'c.mp3',
        title: 'Sarah',
        text: '',
        voice: undefined,
        type: 'speech-to-speech',
        durationMs: 4200,
      },
    );
    expect(playerItem.type).toBe('speech-to-speech');
    expect(playerItem.player.duration).toBe(4200);
    expect(getHistoryItemId(playerItem)).toBe('h2');
  });

  it('leaves the id of a generation empty until its history item is known', () => {
    const [playerItem] = generationPlayback(
      { response: new Response(null), historyItemId: null },
      { outputFormat: 'opus_48000_64', fileName: 'd.opus', title: 'Dialogue', text: '', voice: undefined },
    );
    expect(playerItem.id).toBe('');
    expect(getHistoryItemId(playerItem)).toBeNull();
    expect(playerItem.player.voice_name).toBeUndefined();
  });
});
