import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  base64ToArrayBuffer,
  createJsonEventSplitter,
  readAudioStream,
  readBlobAsArrayBuffer,
  resolveStreamMimeType,
  type StreamedAudioChunk,
  streamMessages,
} from './read-audio-stream';

const encoder = new TextEncoder();

/** A body delivering exactly these pieces, one read each. */
function streamOf(...parts: (string | number[])[]): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts)
        controller.enqueue(typeof part === 'string' ? encoder.encode(part) : new Uint8Array(part));
      controller.close();
    },
  });
}

const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

async function collect(body: ReadableStream<Uint8Array<ArrayBuffer>> | null, contentType?: string) {
  const onChunkError = vi.fn();
  const chunks: StreamedAudioChunk[] = [];
  for await (const chunk of readAudioStream(body, { contentType, onChunkError })) chunks.push(chunk);
  return { bytes: chunks.map((chunk) => [...chunk.audio]), chunks, onChunkError };
}

const alignment = {
  characters: ['H', 'i'],
  character_start_times_seconds: [0, 0.1],
  character_end_times_seconds: [0.1, 0.2],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readAudioStream (§4 "Streaming speech responses")', () => {
  it('passes raw audio chunks through in order', async () => {
    const { bytes, onChunkError } = await collect(streamOf([0xff, 0xfb, 1], [2, 3], [4]), 'audio/mpeg');
    expect(bytes).toEqual([[0xff, 0xfb, 1], [2, 3], [4]]);
    expect(onChunkError).not.toHaveBeenCalled();
  });

  it('recognises raw audio by its first byte when the content type says nothing', async () => {
    const { bytes } = await collect(streamOf([0x49, 0x44, 0x33], [9]));
    expect(bytes).toEqual([[0x49, 0x44, 0x33], [9]]);
  });

  it('reads a single JSON body with audio_base64 and alignment', async () => {
    const body = JSON.stringify({ audio_base64: b64([1, 2, 3]), alignment });
    const { bytes, chunks } = await collect(streamOf(body), 'application/json');
    expect(bytes).toEqual([[1, 2, 3]]);
    expect(chunks[0]?.alignment).toEqual(alignment);
  });

  it('reads a pretty-printed JSON body split across reads, sniffed without a content type', async () => {
    const body = JSON.stringify({ audio_base64: b64([7, 8]), alignment: null }, null, 2);
    const { bytes, onChunkError } = await collect(
      streamOf(body.slice(0, 9), body.slice(9, 30), body.slice(30)),
    );
    expect(bytes).toEqual([[7, 8]]);
    expect(onChunkError).not.toHaveBeenCalled();
  });

  it('reads NDJSON events (one object per line), even when a line is split between reads', async () => {
    const lines = [[1], [2, 2], [3, 3, 3]].map((audio) =>
      JSON.stringify({ audio_base64: b64(audio), alignment }),
    );
    const text = `${lines.join('\n')}\n`;
    const { bytes, onChunkError } = await collect(
      streamOf(text.slice(0, 5), text.slice(5, 40), text.slice(40)),
      'application/x-ndjson',
    );
    expect(bytes).toEqual([[1], [2, 2], [3, 3, 3]]);
    expect(onChunkError).not.toHaveBeenCalled();
  });

  it('reads events separated by blank lines, with CRLF and SSE-style data: prefixes', async () => {
    const one = JSON.stringify({ audio_base64: b64([4]) });
    const two = JSON.stringify({ audio_base64: b64([5, 5]) }, null, 1).replace(/\n/g, '\r\n');
    const { bytes, onChunkError } = await collect(
      streamOf(`${one}\r\n\r\n`, `${two}\r\n\r\ndata: ${one}\n\n`),
    );
    expect(bytes).toEqual([[4], [5, 5], [4]]);
    expect(onChunkError).not.toHaveBeenCalled();
  });

  it('reads the last event when the body ends without a newline', async () => {
    const { bytes } = await collect(
      streamOf(JSON.stringify({ audio_base64: b64([6]) })),
      'application/x-ndjson',
    );
    expect(bytes).toEqual([[6]]);
  });

  it('skips an event that carries only alignment, and an empty audio_base64', async () => {
    const text = [
      JSON.stringify({ audio_base64: '', alignment: null }),
      JSON.stringify({ alignment }),
      JSON.stringify({ audio_base64: b64([1]) }),
    ].join('\n');
    const { chunks } = await collect(streamOf(text), 'application/x-ndjson');
    expect(chunks.map((chunk) => [...chunk.audio])).toEqual([[], [1]]);
    expect(chunks[0]?.alignment).toEqual(alignment);
  });

  it('reports a broken chunk and goes on with the rest', async () => {
    const good = (n: number) => JSON.stringify({ audio_base64: b64([n]) });
    const text = [
      good(1),
      '{"audio_base64": "AAA', // cut-off JSON
      good(2),
      JSON.stringify({ audio_base64: '***not base64***' }),
      good(3),
      '[1, 2]', // not an event
      good(4),
      '',
      'garbage that never parses',
    ].join('\n');
    const { bytes, onChunkError } = await collect(streamOf(text), 'application/x-ndjson');
    expect(bytes).toEqual([[1], [2], [3], [4]]);
    const messages = onChunkError.mock.calls.map(([error]) => (error as Error).message);
    expect(messages).toHaveLength(4);
    expect(messages).toContain(streamMessages.invalidBase64);
  });

  it('logs "Error processing chunk" by default', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const chunks: StreamedAudioChunk[] = [];
    const text = `{"audio_base64": "@@"}\n${JSON.stringify({ audio_base64: b64([9]) })}\n`;
    for await (const chunk of readAudioStream(streamOf(text))) chunks.push(chunk);
    expect(chunks.map((chunk) => [...chunk.audio])).toEqual([[9]]);
    expect(log).toHaveBeenCalledWith(streamMessages.chunkFailed, expect.any(Error));
  });

  it('refuses a null body with "Response body can not be null"', async () => {
    await expect(collect(null)).rejects.toThrow(streamMessages.nullBody);
  });

  it('throws when the body fails midway, after the chunks that arrived', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new Uint8Array([0xff, 1]));
        } else controller.error(new TypeError('network'));
      },
    });
    const received: number[][] = [];
    await expect(
      (async () => {
        for await (const chunk of readAudioStream(body, { contentType: 'audio/mpeg' }))
          received.push([...chunk.audio]);
      })(),
    ).rejects.toThrow('network');
    expect(received).toEqual([[0xff, 1]]);
  });

  it('stops quietly and cancels the body when aborted', async () => {
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull(controller) {
        controller.enqueue(new Uint8Array([1]));
      },
      cancel,
    });
    const controller = new AbortController();
    let count = 0;
    for await (const _ of readAudioStream(body, { contentType: 'audio/mpeg', signal: controller.signal })) {
      count += 1;
      if (count === 3) controller.abort();
    }
    expect(count).toBe(3);
    expect(cancel).toHaveBeenCalled();
  });
});

describe('createJsonEventSplitter', () => {
  it('does not mistake a bare value line inside a pretty-printed body for an event', () => {
    const values: unknown[] = [];
    const onError = vi.fn();
    const splitter = createJsonEventSplitter((value) => values.push(value), onError);
    splitter.push('{\n "audio_base64": "AQ==",\n "alignment": {\n  "x": [\n   0.5\n  ]\n }\n}\n');
    splitter.end();
    expect(values).toEqual([{ audio_base64: 'AQ==', alignment: { x: [0.5] } }]);
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('base64ToArrayBuffer', () => {
  it('decodes plain, unpadded and URL-safe base64', () => {
    expect([...new Uint8Array(base64ToArrayBuffer('AQID'))]).toEqual([1, 2, 3]);
    expect([...new Uint8Array(base64ToArrayBuffer('AQI'))]).toEqual([1, 2]);
    expect([...new Uint8Array(base64ToArrayBuffer('-_8='))]).toEqual([0xfb, 0xff]);
    expect(new Uint8Array(base64ToArrayBuffer('')).byteLength).toBe(0);
  });

  it.each(['abc$', 'A', '====', 'AQ==AQ=='])('refuses %j with the §8 message', (input) => {
    expect(() => base64ToArrayBuffer(input)).toThrow(streamMessages.invalidBase64);
  });
});

describe('readBlobAsArrayBuffer', () => {
  it('reads a blob, and turns a failure into "Failed to read blob"', async () => {
    const bytes = await readBlobAsArrayBuffer(new Blob([new Uint8Array([1, 2])]));
    expect([...new Uint8Array(bytes)]).toEqual([1, 2]);
    const broken = new Blob(['x']);
    broken.arrayBuffer = () => Promise.reject(new Error('NotReadableError'));
    await expect(readBlobAsArrayBuffer(broken)).rejects.toThrow(streamMessages.blobUnreadable);
  });
});

describe('resolveStreamMimeType', () => {
  it("prefers the caller's type, then the response's audio type, then mp3", () => {
    expect(resolveStreamMimeType('audio/ogg', 'audio/mpeg')).toBe('audio/ogg');
    expect(resolveStreamMimeType(undefined, 'audio/mpeg; charset=binary')).toBe('audio/mpeg');
    expect(resolveStreamMimeType(undefined, 'audio/mp3')).toBe('audio/mpeg');
    expect(resolveStreamMimeType(undefined, 'application/x-ndjson')).toBe('audio/mpeg');
    expect(resolveStreamMimeType(undefined, null)).toBe('audio/mpeg');
  });
});
