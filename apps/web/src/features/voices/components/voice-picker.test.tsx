import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { makeVoice } from '../../../test/catalogue-fixture';
import { PlayerProvider } from '../../player/player-provider';
import { VoicePicker } from './voice-picker';

const VOICES = [
  makeVoice({
    voice_id: 'sarah',
    name: 'Sarah',
    labels: { language: 'en', accent: 'american', gender: 'female', age: 'young', use_case: 'narration' },
    preview_url: '/v1/voices/sarah/preview',
  }),
  makeVoice({
    voice_id: 'anna',
    name: 'Anna',
    labels: {
      language: 'de',
      accent: 'standard',
      gender: 'female',
      age: 'middle_aged',
      use_case: 'informative',
    },
    preview_url: '/v1/voices/anna/preview',
  }),
  makeVoice({
    voice_id: 'lukas',
    name: 'Lukas',
    labels: { language: 'de', accent: 'standard', gender: 'male', age: 'young', use_case: 'narration' },
  }),
];

const queryClient = createQueryClient();

function Harness({ presetLanguage }: { presetLanguage?: string }) {
  const [selected, setSelected] = useState(VOICES[0]);
  return (
    <QueryClientProvider client={queryClient}>
      <PlayerProvider>
        <VoicePicker
          voices={VOICES}
          selected={selected}
          onSelect={setSelected}
          {...(presetLanguage ? { presetLanguage } : {})}
        />
      </PlayerProvider>
    </QueryClientProvider>
  );
}

afterEach(cleanup);

const items = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: 'Voices' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.font-medium span')?.textContent);

describe('VoicePicker', () => {
  it('filters by language, gender, age and use case, searches, and picks with one click', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: /Voice.*Sarah/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a voice' });
    expect(items(dialog)).toEqual(['Sarah', 'Anna', 'Lukas']);

    const language = within(dialog).getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect([...language.options].map((o) => o.textContent)).toEqual(['Any', 'English (1)', 'German (2)']);
    fireEvent.change(language, { target: { value: 'de' } });
    expect(items(dialog)).toEqual(['Anna', 'Lukas']);
    expect(within(dialog).getByText('2 of 3 voices')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Gender' }), { target: { value: 'male' } });
    expect(items(dialog)).toEqual(['Lukas']);
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Age' }), {
      target: { value: 'middle_aged' },
    });
    expect(within(dialog).getByText('No voice matches these filters.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear filters' }));
    expect(items(dialog)).toEqual(['Sarah', 'Anna', 'Lukas']);

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Use case' }), {
      target: { value: 'narration' },
    });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Accent' }), {
      target: { value: 'standard' },
    });
    expect(items(dialog)).toEqual(['Lukas']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear filters' }));
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search voices' }), {
      target: { value: 'german informative' },
    });
    expect(items(dialog)).toEqual(['Anna']);

    // A preview per voice; one without a preview says so instead.
    expect(within(dialog).getByRole('button', { name: 'Play the preview of Anna' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use Anna' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: /Voice.*Anna/ })).toBeTruthy();
  });

  it('opens with a preset language, and marks voices without a preview', async () => {
    render(<Harness presetLanguage="de" />);
    fireEvent.click(screen.getByRole('button', { name: /Voice.*Sarah/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a voice' });
    expect(items(dialog)).toEqual(['Anna', 'Lukas']);
    const lukas = within(dialog).getByRole('button', {
      name: 'Play the preview of Lukas',
    }) as HTMLButtonElement;
    expect(lukas.disabled).toBe(true);
    expect(lukas.title).toBe('No preview yet');
  });
});
