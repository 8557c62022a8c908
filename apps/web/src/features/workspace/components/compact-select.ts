/** A select sized to sit among the small row buttons. */
export const compactSelectClasses =
  'h-8 rounded-md border border-line bg-surface px-2 text-sm text-fg shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30 disabled:cursor-not-allowed disabled:opacity-60';
