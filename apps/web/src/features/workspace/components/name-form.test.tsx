import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http-error';
import { NameForm } from './name-form';

afterEach(cleanup);

const form = (save: (name: string) => Promise<unknown>, initial?: string) =>
  render(
    <NameForm
      label="Group name"
      fieldName="group-name"
      emptyMessage="Enter a group name."
      submitLabel="Create group"
      clearOnSuccess={initial === undefined}
      {...(initial === undefined ? {} : { initial })}
      save={save}
    />,
  );

describe('NameForm', () => {
  it('asks for a name, saves it trimmed and clears the field', async () => {
    const save = vi.fn().mockResolvedValue(undefined);
    form(save);
    fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(screen.getByText('Enter a group name.')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    const field = screen.getByLabelText('Group name') as HTMLInputElement;
    fireEvent.change(field, { target: { value: '  Narrators ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(field.value).toBe(''));
    expect(save).toHaveBeenCalledExactlyOnceWith('Narrators');
  });

  it('shows the server’s refusal under the field and keeps the name', async () => {
    const save = vi
      .fn()
      .mockRejectedValue(
        new HttpError({ status: 403, message: 'Only workspace admins can do this.', errorType: 'forbidden' }),
      );
    form(save);
    const field = screen.getByLabelText('Group name') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'Narrators' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    await screen.findByText('Only workspace admins can do this.');
    expect(field.value).toBe('Narrators');
  });

  it('does nothing when the name is saved unchanged', () => {
    const save = vi.fn().mockResolvedValue(undefined);
    form(save, 'Acme');
    fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(save).not.toHaveBeenCalled();
  });
});
