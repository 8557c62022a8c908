import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUsageChart } from '../usage-chart-rules';
import { UsageChart } from './usage-chart';

const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 1);

/** Thirty days of credits, one series. */
const chart = buildUsageChart({
  time: Array.from({ length: 30 }, (_, i) => START + i * DAY),
  usage: { All: Array.from({ length: 30 }, (_, i) => (i % 5) * 1000 + 200) },
});

/** A ResizeObserver that reports the observed element `width` CSS pixels wide at once. */
function stubBoxWidth(width: number) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        this.callback(
          [{ target, contentRect: { width } } as unknown as ResizeObserverEntry],
          this as unknown as ResizeObserver,
        );
      }
      unobserve() {}
      disconnect() {}
    },
  );
}

/** The day labels under the bars. */
const dayLabels = (svg: SVGSVGElement) =>
  [...svg.querySelectorAll('text[data-axis="x"]')].map((text) => text.textContent);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('<UsageChart> (issue 26 item 7: readable at 390 px)', () => {
  it('on a phone, draws at its own width so the labels keep their size, and labels fewer days', () => {
    stubBoxWidth(318);
    const { container } = render(<UsageChart chart={chart} labelOf={(key) => key} />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    // One unit of the drawing is one CSS pixel: 12-unit labels are 12 px on the screen.
    expect(svg.getAttribute('viewBox')?.split(' ')[2]).toBe('318');
    expect(svg.getAttribute('width')).toBe('318');
    const labels = dayLabels(svg);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(labels.length).toBeLessThanOrEqual(5);
    // The last day, today, is always labelled.
    expect(labels.at(-1)).toBe('Mar 30');
    // Every label fits inside the drawing.
    for (const text of svg.querySelectorAll('text')) {
      const x = Number(text.getAttribute('x'));
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(318);
    }
  });

  it('on a wide screen, labels about every third day of thirty', () => {
    stubBoxWidth(1000);
    const { container } = render(<UsageChart chart={chart} labelOf={(key) => key} />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.getAttribute('viewBox')?.split(' ')[2]).toBe('1000');
    expect(dayLabels(svg).length).toBeGreaterThanOrEqual(8);
  });
});
