/** The share of the period's credits used, as a bar; red from 90 %. */
export function CreditsMeter({ percentUsed }: { percentUsed: number }) {
  return (
    <div
      role="progressbar"
      aria-label="Credits used this period"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percentUsed}
      aria-valuetext={`${percentUsed}% used`}
      className="h-2 overflow-hidden rounded-full bg-subtle"
    >
      <div
        className={percentUsed >= 90 ? 'h-full bg-danger' : 'h-full bg-accent'}
        style={{ width: `${percentUsed}%` }}
      />
    </div>
  );
}
