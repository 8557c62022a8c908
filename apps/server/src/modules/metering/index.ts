/** The metering module's front door: what other modules may use (issue 17; the rest is its own). */

/** This process's leases on its running generations (started by the process entry; credits survive a crash). */
export { type GenerationLeases, startGenerationLeases } from '../credits';
export type {
  Budget,
  BudgetOptions,
  Deliver,
  MeteredCaller,
  MeteredWork,
  MeteringDeps,
  SocketSlot,
} from './metering.service';
export {
  assertAffordable,
  assertFormatAllowed,
  assertFormatAllowedFor,
  chargeGeneration,
  creditsUsedOf,
  finishStreamed,
  openBudget,
  openSocketSlot,
  recordGeneration,
  runDelivered,
  runMetered,
} from './metering.service';
