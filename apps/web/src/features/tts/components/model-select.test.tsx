import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeModel } from '../../../test/catalogue-fixture';
import { ModelSelect } from './model-select';

afterEach(cleanup);

// As GET /v1/models lists them: Parla's models, then the public ids as aliases (contracts tts-catalog).
const MODELS = [
  makeModel({
    model_id: 'parla_v1',
    name: 'Parla v1',
    description: 'The best sound Parla has for each voice.',
  }),
  makeModel({
    model_id: 'parla_multilingual_v1',
    name: 'Parla Multilingual v1',
    description: 'The fastest model, at half the credits.',
    token_cost_factor: 0.5,
  }),
  makeModel({
    model_id: 'parla_sts_v1',
    name: 'Parla Voice Changer v1',
    can_do_text_to_speech: false,
    can_do_voice_conversion: true,
  }),
  makeModel({
    model_id: 'eleven_multilingual_v2',
    name: 'Parla v1 (alias eleven_multilingual_v2)',
    description: 'Alias of Parla v1 (parla_v1): The best sound Parla has for each voice.',
    alias_of: 'parla_v1',
  }),
];

function renderSelect(value: string) {
  const onChange = vi.fn();
  const router = createMemoryRouter([
    { path: '/', element: <ModelSelect models={MODELS} value={value} onChange={onChange} /> },
  ]);
  render(<RouterProvider router={router} />);
  return { onChange, select: screen.getByRole('combobox', { name: 'Model' }) as HTMLSelectElement };
}

describe('ModelSelect (issue 26 item 7)', () => {
  it('offers Parla’s text-to-speech models by their names, with the chosen one’s plain description', () => {
    const { select, onChange } = renderSelect('parla_v1');
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['parla_v1', 'Parla v1'],
      ['parla_multilingual_v1', 'Parla Multilingual v1'],
    ]);
    expect(screen.getByText(/The best sound Parla has for each voice/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'About the models' }).getAttribute('href')).toBe(
      '/app/about/models',
    );
    fireEvent.change(select, { target: { value: 'parla_multilingual_v1' } });
    expect(onChange).toHaveBeenCalledWith('parla_multilingual_v1');
  });

  it('shows a public id chosen before as the Parla model it stands for, never under a name of its own', () => {
    const { select } = renderSelect('eleven_multilingual_v2');
    expect(select.value).toBe('parla_v1');
    expect(screen.queryByText(/eleven|public model id/i)).toBeNull();
  });

  it('adds the credits per character of a model that costs less', () => {
    renderSelect('parla_multilingual_v1');
    expect(screen.getByText(/half the credits\. 0\.5 credits per character\./)).toBeTruthy();
  });
});
