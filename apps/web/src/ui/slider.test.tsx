import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatSliderPercent, isSliderWarned, Slider } from './slider';

describe('slider rules (history/voices §5)', () => {
  it('shows the value as a percent', () => {
    expect(formatSliderPercent(0)).toBe('0%');
    expect(formatSliderPercent(0.505)).toBe('51%');
    expect(formatSliderPercent(1)).toBe('100%');
  });

  it('warns under warnUntil and over warnFrom only', () => {
    expect(isSliderWarned(0.2, { warnUntil: 0.3 })).toBe(true);
    expect(isSliderWarned(0.3, { warnUntil: 0.3 })).toBe(false);
    expect(isSliderWarned(0.8, { warnFrom: 0.75 })).toBe(true);
    expect(isSliderWarned(0.75, { warnFrom: 0.75 })).toBe(false);
    expect(isSliderWarned(0.5, {})).toBe(false);
  });
});

describe('<Slider>', () => {
  it('is a labelled range from 0 to 1 by 0.005, with the percent as its spoken value', () => {
    render(<Slider label="Stability" value={0.5} onValueChange={() => undefined} />);
    const input = screen.getByRole('slider', { name: 'Stability' });
    expect(input).toHaveProperty('min', '0');
    expect(input).toHaveProperty('max', '1');
    expect(input).toHaveProperty('step', '0.005');
    expect(input.getAttribute('aria-valuetext')).toBe('50%');
  });

  it('reports changes as numbers and shows the tooltip while focused', () => {
    const onValueChange = vi.fn();
    render(<Slider label="Style" value={0.1} onValueChange={onValueChange} />);
    const input = screen.getByRole('slider', { name: 'Style' });
    fireEvent.change(input, { target: { value: '0.42' } });
    expect(onValueChange).toHaveBeenCalledWith(0.42);
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.focus(input);
    expect(screen.getByRole('tooltip').textContent).toBe('10%');
  });

  it('shows its warning only in the warned range', () => {
    const { rerender } = render(
      <Slider
        label="Stability"
        value={0.5}
        warnUntil={0.3}
        warning="Low stability"
        onValueChange={() => undefined}
      />,
    );
    expect(screen.queryByText('Low stability')).toBeNull();
    rerender(
      <Slider
        label="Stability"
        value={0.1}
        warnUntil={0.3}
        warning="Low stability"
        onValueChange={() => undefined}
      />,
    );
    expect(screen.getByText('Low stability')).toBeTruthy();
  });
});
