import { buildPath, hostedSessionPaths } from '@parla/contracts';
import { newId } from '../../platform/ids';
import type { BillingProvider } from './billing-provider';
import { cardRefusal, readCard } from './test-cards';

/**
 * The built-in test-mode provider (the default): its hosted pages are the web app's own /billing pages,
 * and its "card processor" is the test cards' behaviour (test-cards.ts readCard/cardRefusal), with which
 * the billing module's hosted pages read the cards entered there (`hostedCards`). No money moves; every rule
 * and state change is the billing engine's. Its pages are answered as same-origin paths (issue 18): the
 * browser stays on the host it signed in on, whatever PUBLIC_URL says.
 */
export function createTestProvider(): BillingProvider {
  return {
    name: 'test',
    runsRenewals: true,
    async sessionUrl(_ctx, session) {
      return buildPath(hostedSessionPaths[session.kind], { session_id: session.id });
    },
    async charge(ctx) {
      const card = ctx.state.sub.card;
      if (!card) return { ok: false, message: 'There is no card on file.' };
      const refusal = cardRefusal(card.behaviour, 'charge');
      return refusal ? { ok: false, message: refusal } : { ok: true };
    },
    async changePlanNow() {},
    async scheduleDowngrade() {},
    async setCancelAtPeriodEnd() {},
    // The engine applies the discount to the next invoice it issues itself.
    async applyDiscount() {},
    async verifyCard(ctx) {
      const card = ctx.state.sub.card;
      if (!card) return { ok: false, message: 'There is no card on file.' };
      const refusal = cardRefusal(card.behaviour, 'save');
      return refusal ? { ok: false, message: refusal } : { ok: true };
    },
    async createConnectAccount() {
      return `acct_test_${newId(16)}`;
    },
    hostedCards: {
      readCard,
      refusal: (card, purpose) => cardRefusal(card.behaviour, purpose),
    },
  };
}
