import { trainingOptOutMessages } from '@parla/contracts';
import { TooltipProvider } from '@radix-ui/react-tooltip';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '../../../test/dom-stubs';
import { DataTrainingDialog } from './data-training-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(props: { value?: boolean; canChange?: boolean } = {}) {
  const onClose = vi.fn<(result: boolean | null) => void>();
  render(
    <TooltipProvider delayDuration={0}>
      <DataTrainingDialog
        open
        value={props.value ?? false}
        canChange={props.canChange ?? true}
        onClose={onClose}
      />
    </TooltipProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Data training' });
  const toggle = within(dialog).getByRole('switch', { name: /Opt out of data training/ }) as HTMLInputElement;
  const confirm = within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
  return { dialog, toggle, confirm, onClose };
}

describe('the data-training confirmation dialog (accounts §5)', () => {
  it('starts from the setting, and keeps Confirm disabled while the switch equals it', () => {
    const { toggle, confirm } = show({ value: true });
    expect(toggle.checked).toBe(true);
    expect(confirm.disabled).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(false);
    expect(confirm.disabled).toBe(false);
    fireEvent.click(toggle);
    expect(confirm.disabled).toBe(true);
  });

  it('Confirm returns the switch value', () => {
    const { toggle, confirm, onClose } = show({ value: false });
    fireEvent.click(toggle);
    fireEvent.click(confirm);
    expect(onClose).toHaveBeenCalledExactlyOnceWith(true);
  });

  it('Cancel returns null, and so does closing with Escape', () => {
    const first = show();
    fireEvent.click(first.toggle);
    fireEvent.click(within(first.dialog).getByRole('button', { name: 'Cancel' }));
    expect(first.onClose).toHaveBeenCalledExactlyOnceWith(null);
    cleanup();

    const second = show();
    fireEvent.keyDown(second.dialog, { key: 'Escape' });
    expect(second.onClose).toHaveBeenCalledExactlyOnceWith(null);
  });

  it('disables the switch for someone who may not change it, with the tooltip saying why', async () => {
    stubResizeObserver();
    const { toggle, confirm } = show({ canChange: false, value: true });
    expect(toggle.disabled).toBe(true);
    expect(confirm.disabled).toBe(true);
    // The disabled switch sits in a focusable wrapper, so keyboard and mouse users reach the reason (the
    // dialog's first focus lands there).
    const wrapper = toggle.closest('span[tabindex="0"]') as HTMLElement;
    fireEvent.focus(wrapper);
    expect((await screen.findByRole('tooltip')).textContent).toBe(trainingOptOutMessages.adminsOnly);
    expect(trainingOptOutMessages.adminsOnly).toBe('Only workspace admins can change this setting.');
  });
});
