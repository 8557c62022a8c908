/** The metering module's front door: what other modules may use (issue 17; the rest is its own). */

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
  finishStreamed,
  openBudget,
  openSocketSlot,
  recordGeneration,
  runDelivered,
  runMetered,
} from './metering.service';
