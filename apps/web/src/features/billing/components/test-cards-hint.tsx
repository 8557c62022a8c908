import { Button } from '../../../ui/button';
import { testCardHints } from '../card-form-rules';

/** The test cards of the built-in provider (contracts TEST_CARDS); "Use" puts one in the form. */
export function TestCardsHint({ onUse }: { onUse: (cardNumber: string) => void }) {
  return (
    <aside
      aria-labelledby="test-cards-title"
      className="flex flex-col gap-3 rounded-xl border border-dashed border-warning/50 bg-warning-soft p-4 text-sm"
    >
      <div>
        <h2 id="test-cards-title" className="font-semibold">
          Test cards
        </h2>
        <p className="text-fg-muted">
          No real money moves. Use any future expiry date, any CVC and any name.
        </p>
      </div>
      <ul className="flex flex-col gap-1.5">
        {testCardHints.map((card) => (
          <li key={card.number} className="flex items-center gap-3">
            <code className="shrink-0 font-mono">{card.number}</code>
            <span className="min-w-0 flex-1 text-fg-muted">{card.outcome}</span>
            <Button
              size="sm"
              variant="ghost"
              className="shrink-0"
              onClick={() => onUse(card.number)}
              aria-label={`Use ${card.number}`}
            >
              Use
            </Button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
