import type { ReactNode } from 'react';
import { Button } from './button';

const numbers = new Intl.NumberFormat('en-US');
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export interface GenerateBarProps {
  /** The counts at the start of the bar (characters, credits, voices…): a span each. */
  children: ReactNode;
  /** The counts' id, for a field that they describe (aria-describedby). */
  countsId?: string;
  /** Announce the counts as they change (they follow what the page measures, not what is typed). */
  live?: boolean;
  /** The submit button's label, and its label while the form's request runs. */
  label: string;
  pendingLabel: string;
  pending: boolean;
  /** Nothing to send yet, or something stands in the way: the button is disabled. */
  blocked: boolean;
  /** Shows the ⌘/Ctrl + Enter hint: the caller's form submits on it (tts-rules isGenerateShortcut). */
  shortcut?: boolean;
}

/**
 * The foot of a generation form's main card (text to speech, text to dialogue, speech to speech): what the
 * request will cost and take, the keyboard shortcut, and the submit button. A running request keeps the
 * button focusable (aria-disabled) so the focus stays where it was.
 *
 * The bar sticks to the bottom of the window (above the bottom player while it shows) whenever its card
 * runs past the fold, so the form's primary action is in view at every width without scrolling (issue 26
 * item 7): a long text, many dialogue lines or a short window no longer hide it. Once the card's end
 * scrolls into view the bar sits at its place in the card again.
 */
export function GenerateBar({
  children,
  countsId,
  live = false,
  label,
  pendingLabel,
  pending,
  blocked,
  shortcut = false,
}: GenerateBarProps) {
  return (
    <div
      data-generate-bar=""
      className="sticky bottom-[var(--parla-player-offset,0px)] z-10 mt-auto flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-line bg-surface px-5 py-3 last:rounded-b-xl"
    >
      <p
        id={countsId}
        className="flex flex-wrap gap-x-3 text-xs text-fg-muted tabular-nums"
        aria-live={live ? 'polite' : undefined}
      >
        {children}
      </p>
      <div className="ml-auto flex items-center gap-3">
        {shortcut && (
          <span className="hidden text-xs text-fg-muted sm:inline">
            <kbd className="rounded border border-line bg-subtle px-1.5 py-0.5 font-sans">
              {isMac ? '⌘' : 'Ctrl'}
            </kbd>{' '}
            + <kbd className="rounded border border-line bg-subtle px-1.5 py-0.5 font-sans">Enter</kbd>
          </span>
        )}
        <Button type="submit" disabled={blocked} aria-disabled={pending || undefined}>
          {pending ? pendingLabel : label}
        </Button>
      </div>
    </div>
  );
}

export interface CreditCountProps {
  /** What the request costs ("12 credits", or a rate while the cost is not known yet). */
  children: ReactNode;
  /** Credits left this period: -1 unlimited, undefined while the subscription is not known. */
  left: number | undefined;
  /** More than is left: shown in the danger colour. */
  short?: boolean;
}

/** "12 credits · 3,400 left" (or "· unlimited") in a generate bar. */
export function CreditCount({ children, left, short = false }: CreditCountProps) {
  return (
    <span className={short ? 'text-danger' : undefined}>
      {children}
      {left === -1 && ' · unlimited'}
      {left !== undefined && left !== -1 && ` · ${numbers.format(left)} left`}
    </span>
  );
}

/** "1 credit", "1,200 credits". */
export function formatCredits(credits: number): string {
  return `${numbers.format(credits)} ${credits === 1 ? 'credit' : 'credits'}`;
}
