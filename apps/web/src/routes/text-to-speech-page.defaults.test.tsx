import type { ModelResponse } from '@parla/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/speech-synthesis/text-to-speech';

const NEURAL = makeModel({ model_id: 'parla_neural_v1', name: 'Parla Neural v1' });
const CLASSIC = makeModel({ model_id: 'parla_v1', name: 'Parla v1' });
/** A classic-only voice listed first, then a neural one (the server lists the models that speak each). */
const VOICES = [
  makeVoice({ voice_id: 'alan', name: 'Alan', high_quality_base_model_ids: ['parla_v1'] }),
  makeVoice({
    voice_id: 'sarah',
    name: 'Sarah',
    high_quality_base_model_ids: ['parla_neural_v1', 'parla_v1'],
  }),
];

function stubApi(models: ModelResponse[]) {
  setAccessToken('t1');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      if (key === 'GET /v1/user') return json(makeUser({ user_id: 'u1' }));
      if (key === 'GET /v1/models') return json(models);
      if (key === 'GET /v1/voices') return json({ voices: VOICES });
      if (key === 'GET /v1/history')
        return json({ history: [], last_history_item_id: null, has_more: false, scanned_until: null });
      return apiError(404, 'not_found');
    }),
  );
}

const modelBox = () => screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('the text-to-speech page’s defaults (issue 27)', () => {
  it('starts with a neural voice and the neural model, which the picker offers', async () => {
    stubApi([NEURAL, CLASSIC]);
    renderApp(PATH);
    const select = (await modelBox()) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('parla_neural_v1'));
    expect([...select.options].map((o) => o.text)).toEqual(['Parla Neural v1', 'Parla v1']);
    expect(await screen.findByText('Sarah', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('starts on the classic model when the server does not offer the neural one', async () => {
    stubApi([CLASSIC]);
    renderApp(PATH);
    const select = (await modelBox()) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('parla_v1'));
    // The same voice, spoken by the classic model.
    expect(await screen.findByText('Sarah', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
