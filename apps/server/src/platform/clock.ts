/** The source of "now" for rules that depend on time; tests and renewals inject their own. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Unix seconds of a date, the API's `*_unix` fields. */
export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
