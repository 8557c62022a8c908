import { clientErrorMessages } from '@parla/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RenameDialog } from './rename-dialog';

afterEach(cleanup);

function open(onRename: (name: string) => Promise<unknown>, onClose = vi.fn()) {
  render(
    <RenameDialog
      title="Rename thing"
      currentName="Old name"
      emptyMessage="Give the thing a name."
      maxLength={10}
      pending={false}
      onRename={onRename}
      onClose={onClose}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Rename thing' });
  const type = (value: string) => fireEvent.change(screen.getByLabelText('Name'), { target: { value } });
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  return { dialog, type, save, onClose };
}

describe('RenameDialog', () => {
  it('checks the trimmed name before sending it and saves the trimmed name', async () => {
    const onRename = vi.fn(async () => undefined);
    const { type, save, onClose } = open(onRename);
    type('   ');
    save();
    expect(screen.getByText('Give the thing a name.')).toBeTruthy();
    type('eleven chars');
    save();
    expect(screen.getByText('At most 10 characters.')).toBeTruthy();
    expect(onRename).not.toHaveBeenCalled();
    type('  New  ');
    save();
    expect(onRename).toHaveBeenCalledWith('New');
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('closes without a request when the name is unchanged', () => {
    const onRename = vi.fn(async () => undefined);
    const { type, save, onClose } = open(onRename);
    type(' Old name ');
    save();
    expect(onRename).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays open with a message when the rename fails', async () => {
    const { type, save, onClose } = open(() => Promise.reject(new Error('network down')));
    type('New');
    save();
    await screen.findByText(clientErrorMessages.generic);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Rename thing' })).toBeTruthy();
  });
});
