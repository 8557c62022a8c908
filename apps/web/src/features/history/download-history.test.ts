import { historyItemFileName, historyZipFileName } from '@parla/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { makeHistoryItem } from '../../test/history-fixture';
import {
  checkDownloadResponseType,
  downloadHistory,
  historyItemDownloadName,
  mediaTypeOf,
  pickDownloadFileName,
  readContentDispositionFileName,
  toNamingItem,
} from './download-history';

const item = makeHistoryItem();

describe('checkDownloadResponseType (history/voices §5, §8)', () => {
  it.each([
    ['application/zip', 'zip'],
    ['audio/mpeg', 'mp3'],
    ['audio/wav', 'wav'],
    ['audio/ogg', 'opus'],
    ['audio/pcm', 'pcm'],
    ['audio/basic', 'ulaw'],
    ['audio/x-alaw-basic', 'alaw'],
    ['Audio/MPEG; charset=binary', 'mp3'],
  ])('accepts %s as .%s', (type, extension) => {
    expect(checkDownloadResponseType(type)).toBe(extension);
  });

  it.each([
    ['text/html; charset=utf-8', 'text/html'],
    ['application/json', 'application/json'],
    ['application/octet-stream', 'application/octet-stream'],
    [null, ''],
  ])('refuses %s with the spec sentence', (type, shown) => {
    expect(() => checkDownloadResponseType(type)).toThrow(
      `Invalid response type received: '${shown}' is not supported.`,
    );
  });

  it('reads the media type without its parameters', () => {
    expect(mediaTypeOf(' audio/wav ; codecs=1')).toBe('audio/wav');
    expect(mediaTypeOf(undefined)).toBe('');
  });
});

describe('readContentDispositionFileName', () => {
  it.each([
    ['attachment; filename="Parla_take.mp3"', 'Parla_take.mp3'],
    ['attachment; filename=plain.wav', 'plain.wav'],
    ['attachment; filename="a \\"quoted\\" name.mp3"', 'a "quoted" name.mp3'],
    ['attachment; filename="fallback.mp3"; filename*=UTF-8\'\'J%C3%BCrgen.mp3', 'Jürgen.mp3'],
    ["attachment; filename*=utf-8'en'caf%C3%A9.zip", 'café.zip'],
  ])('reads %s', (header, name) => {
    expect(readContentDispositionFileName(header)).toBe(name);
  });

  it('gives nothing when no name is given', () => {
    expect(readContentDispositionFileName(null)).toBeUndefined();
    expect(readContentDispositionFileName('attachment')).toBeUndefined();
    expect(readContentDispositionFileName('attachment; filename=""')).toBeUndefined();
  });
});

describe('pickDownloadFileName (history/voices §3, §5)', () => {
  const nowUnix = 1_760_000_000;

  it("takes the server's name, made safe, with the extension of what arrived", () => {
    expect(
      pickDownloadFileName({
        contentDisposition: 'attachment; filename="my take/1.mp3"',
        extension: 'wav',
        items: [item],
        nowUnix,
      }),
    ).toBe('my_take1.wav');
  });

  it('keeps the letters the server names in filename* (issue 26 item 7: "Lucía", not "Luca")', () => {
    // As the server's attachmentDisposition writes it: the ASCII fallback first, the UTF-8 name after.
    const header =
      'attachment; filename="Parla_2026-01-01T00_00_00_Lucia_ivc_parla_v1.mp3"; filename*=UTF-8\'\'Parla_2026-01-01T00_00_00_Luc%C3%ADa_ivc_parla_v1.mp3';
    expect(readContentDispositionFileName(header)).toBe('Parla_2026-01-01T00_00_00_Lucía_ivc_parla_v1.mp3');
    expect(
      pickDownloadFileName({ contentDisposition: header, extension: 'mp3', items: [item], nowUnix }),
    ).toBe('Parla_2026-01-01T00_00_00_Lucía_ivc_parla_v1.mp3');
  });

  it("falls back to the contracts' name of the one item", () => {
    expect(pickDownloadFileName({ contentDisposition: null, extension: 'mp3', items: [item], nowUnix })).toBe(
      historyItemFileName(toNamingItem(item), 'mp3'),
    );
  });

  it('falls back to the zip name for several items', () => {
    expect(
      pickDownloadFileName({ contentDisposition: null, extension: 'zip', items: [item, item], nowUnix }),
    ).toBe(historyZipFileName(nowUnix));
  });

  it("names an item's own audio with the extension of the format it was made in", () => {
    expect(historyItemDownloadName(makeHistoryItem({ output_format: 'opus_48000_64' }))).toBe(
      historyItemFileName(toNamingItem(item), 'opus'),
    );
    expect(historyItemDownloadName(makeHistoryItem({ output_format: 'wav_44100' }))).toMatch(/\.wav$/);
    expect(historyItemDownloadName(makeHistoryItem({ output_format: 'something_else' }))).toMatch(/\.mp3$/);
  });

  it('reads only the naming settings it knows, of the right type', () => {
    expect(
      toNamingItem({ ...item, settings: { stability: '0.5', use_speaker_boost: 1 } }).voice_settings,
    ).toEqual({
      speed: undefined,
      stability: undefined,
      similarity_boost: undefined,
      style: undefined,
      quality: undefined,
      use_speaker_boost: undefined,
    });
  });
});

describe('downloadHistory', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setAccessToken(null);
  });

  function stubDownload(response: Response) {
    setAccessToken('t1');
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        return response;
      }),
    );
    const saved: Array<{ name: string; type: string }> = [];
    vi.stubGlobal(
      'URL',
      Object.assign(class extends URL {}, {
        createObjectURL: (blob: Blob) => {
          saved.push({ name: '', type: blob.type });
          return 'blob:test/1';
        },
        revokeObjectURL: () => {},
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      const last = saved.at(-1);
      if (last) last.name = this.download;
    });
    return { calls, saved, click };
  }

  it('posts the ids and saves a zip under the server name', async () => {
    const { calls, saved } = stubDownload(
      new Response('PK', {
        headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="x.zip"' },
      }),
    );
    const name = await downloadHistory([item, makeHistoryItem({ history_item_id: 'h2' })]);
    expect(name).toBe('x.zip');
    expect(calls[0]?.url).toBe('/v1/history/download');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ history_item_ids: ['h1', 'h2'] });
    expect(saved).toEqual([{ name: 'x.zip', type: 'application/zip' }]);
  });

  it('sends the wav choice and refuses a response of an unknown type without saving', async () => {
    const { calls, saved } = stubDownload(
      new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
    );
    await expect(downloadHistory([item], { outputFormat: 'wav' })).rejects.toThrow(
      "Invalid response type received: 'text/html' is not supported.",
    );
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      history_item_ids: ['h1'],
      output_format: 'wav',
    });
    expect(saved).toEqual([]);
  });
});
