import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CreditCount, formatCredits, GenerateBar } from './generate-bar';

afterEach(cleanup);

describe('<GenerateBar>', () => {
  it('submits its form, disabled while blocked, and keeps the focus (aria-disabled) while pending', () => {
    const { rerender } = render(
      <GenerateBar label="Generate speech" pendingLabel="Generating…" pending={false} blocked>
        <span>12 / 100 characters</span>
      </GenerateBar>,
    );
    const button = screen.getByRole('button', { name: 'Generate speech' }) as HTMLButtonElement;
    expect(button.type).toBe('submit');
    expect(button.disabled).toBe(true);
    rerender(
      <GenerateBar label="Generate speech" pendingLabel="Generating…" pending blocked={false}>
        <span>12 / 100 characters</span>
      </GenerateBar>,
    );
    const pending = screen.getByRole('button', { name: 'Generating…' }) as HTMLButtonElement;
    expect(pending.disabled).toBe(false);
    expect(pending.getAttribute('aria-disabled')).toBe('true');
  });

  it('names its counts for aria-describedby, announces them when live, and shows the shortcut when asked', () => {
    const { container, rerender } = render(
      <GenerateBar countsId="counts" label="Convert" pendingLabel="Converting…" pending={false} blocked>
        <span>1 credit</span>
      </GenerateBar>,
    );
    const counts = container.querySelector('#counts');
    expect(counts?.textContent).toBe('1 credit');
    expect(counts?.getAttribute('aria-live')).toBeNull();
    expect(container.querySelector('kbd')).toBeNull();
    rerender(
      <GenerateBar live shortcut label="Convert" pendingLabel="Converting…" pending={false} blocked>
        <span>1 credit</span>
      </GenerateBar>,
    );
    expect(screen.getByText('1 credit').parentElement?.getAttribute('aria-live')).toBe('polite');
    expect(container.querySelectorAll('kbd')).toHaveLength(2);
  });
});

describe('<CreditCount>', () => {
  it('says what is left, unlimited, or nothing while the subscription is unknown', () => {
    const { container, rerender } = render(<CreditCount left={3400}>{formatCredits(12)}</CreditCount>);
    expect(container.textContent).toBe('12 credits · 3,400 left');
    rerender(<CreditCount left={-1}>{formatCredits(1)}</CreditCount>);
    expect(container.textContent).toBe('1 credit · unlimited');
    rerender(
      <CreditCount left={undefined} short>
        {formatCredits(1200)}
      </CreditCount>,
    );
    expect(container.textContent).toBe('1,200 credits');
    expect(container.querySelector('span')?.className).toBe('text-danger');
  });
});
