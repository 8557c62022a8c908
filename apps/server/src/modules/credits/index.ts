/** The credits module's front door: what other modules may use (issue 17; the rest is its own). */

export type { Reservation } from './credits.service';
export {
  assertQuota,
  openGeneration,
  readQuotaState,
  refundGeneration,
  settleGeneration,
  settleGenerationPart,
  takeSocketSlot,
} from './credits.service';
export type { GenerationLeases } from './generation-leases';
