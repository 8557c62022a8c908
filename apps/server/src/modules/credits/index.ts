/**
 * The credits module's front door, for the metering module alone (issue 26 item 1: only metering reaches
 * credit reservation, settlement and refund; lint refuses any other importer).
 */

export type { Reservation } from './credits.service';
export {
  assertQuota,
  creditsUsed,
  openGeneration,
  readQuotaState,
  refundGeneration,
  settleGeneration,
  settleGenerationPart,
  takeSocketSlot,
} from './credits.service';
export type { GenerationLeases } from './generation-leases';
export { startGenerationLeases } from './generation-leases';
