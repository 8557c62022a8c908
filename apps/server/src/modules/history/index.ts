/** The history module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

export { recordHistoryItem } from './history.service';
export type { HistoryItemInsert } from './history.tables';
