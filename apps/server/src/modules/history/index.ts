/** The history module's front door: what other modules may use (issue 17; the rest is its own). */

export type { HistoryItemInsert } from './history.store';
export { insertHistoryItem } from './history.store';
