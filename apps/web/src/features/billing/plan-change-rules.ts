import {
  type Currency,
  formatPrice,
  type PlanAction,
  type PricePeriod,
  type SubscriptionChangePreview,
} from '@parla/contracts';
import type { ChangeType } from './billing-messages';

/** The change a confirm dialog carries out (accounts §4: cancel, downgrade and upgrade open a dialog). */
export function changeTypeOf(action: PlanAction): ChangeType | null {
  if (action === 'upgrade') return 'upgrade';
  if (action === 'downgrade') return 'downgrade';
  if (action === 'cancelSubscription') return 'cancel';
  return null;
}

export interface ChangeDialogInput {
  type: ChangeType;
  /** Display name of the plan the workspace is on. */
  currentName: string;
  /** Display name of the chosen plan (the current one for a cancellation). */
  targetName: string;
  targetPeriod: PricePeriod;
  /** When the current period ends, formatted; null when unknown. */
  periodEnd: string | null;
}

export interface ChangeDialogCopy {
  title: string;
  description: string;
  confirm: string;
  /** The button that closes the dialog without a change. */
  dismiss: string;
}

/**
 * What the confirm dialog says (accounts §4): an upgrade starts now and the difference for the rest of
 * the period is charged now, prorated; a downgrade and a cancellation take effect at the period end.
 */
export function changeDialogCopy(input: ChangeDialogInput): ChangeDialogCopy {
  const until = input.periodEnd
    ? `the end of the billing period (${input.periodEnd})`
    : 'the end of the billing period';
  const period = input.targetPeriod === 'yearly' ? 'billed yearly' : 'billed monthly';
  switch (input.type) {
    case 'upgrade':
      return {
        title: `Upgrade to ${input.targetName}?`,
        description: `You move to ${input.targetName} (${period}) right away, with its credits. The difference for the rest of this billing period is charged to your card now, prorated.`,
        confirm: 'Upgrade',
        dismiss: 'Not now',
      };
    case 'downgrade':
      return {
        title: `Downgrade to ${input.targetName}?`,
        description: `You keep ${input.currentName} and its credits until ${until}. Then the workspace moves to ${input.targetName} (${period}). Nothing is charged now.`,
        confirm: 'Downgrade',
        dismiss: `Keep ${input.currentName}`,
      };
    case 'cancel':
      return {
        title: 'Cancel your subscription?',
        description: `${input.currentName} stays active until ${until}; then the workspace moves to the Free plan. Until then you can undo this with "Do Not Cancel".`,
        confirm: 'Cancel Subscription',
        dismiss: 'Keep subscription',
      };
  }
}

/**
 * The upgrade's charge now, as the confirm dialog states it before charging (issue 18): the amount, and
 * how it is made — the new plan's price less what is left of the current period.
 */
export function describeUpgradeCharge(
  preview: SubscriptionChangePreview,
  names: { currentName: string; targetName: string },
): { amount: string; detail: string } {
  const money = (cents: number) => formatPrice(cents / 100, preview.currency as Currency);
  const amount = money(preview.amount_due_cents);
  const parts = [`${names.targetName} ${money(preview.new_price_cents)}`];
  if (preview.unused_credit_cents > 0) {
    parts.push(`less ${money(preview.unused_credit_cents)} unused on ${names.currentName}`);
  }
  const beforeDiscount = preview.new_price_cents - preview.unused_credit_cents;
  if (preview.amount_due_cents < beforeDiscount) parts.push('with your discount');
  return { amount, detail: parts.join(', ') };
}

/**
 * What a downgrade (or a cancellation to Free) means for the seats (issue 18), or undefined when the
 * members and pending invitations fit the smaller plan. Nobody is removed: the workspace only stops
 * taking new members until it fits.
 */
export function downgradeSeatWarning(input: {
  seatsUsed: number;
  targetName: string;
  targetSeats: number;
  when: string | null;
}): string | undefined {
  if (input.seatsUsed <= input.targetSeats) return undefined;
  const seats = `${input.targetSeats} ${input.targetSeats === 1 ? 'seat' : 'seats'}`;
  const at = input.when ? ` on ${input.when}` : ' at the end of the billing period';
  return `This workspace has ${input.seatsUsed} members and pending invitations, but ${input.targetName} has ${seats}. Nobody is removed${at}, but no one new can join and pending invitations cannot be accepted until a seat is free.`;
}
