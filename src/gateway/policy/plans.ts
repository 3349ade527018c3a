/** Service plans and their default credit limits; a key's own limits (when not 0) override them. */

/**
 * The hosted gateway's plans, and devgate's own `unlimited`: the plan of every key when neither a keys file nor
 * `--plan` asks for limits (a development target does not rate-limit a test suite).
 */
export const PLANS = ['free', 'developer', 'team', 'growth', 'custom', 'unlimited'] as const;
export type Plan = (typeof PLANS)[number];

/** Credits per second and per day; null is unlimited. */
export interface CreditLimits {
  readonly creditsPerSecond: number | null;
  readonly creditsPerDay: number | null;
}

export const PLAN_LIMITS: Readonly<Record<Plan, CreditLimits>> = {
  free: { creditsPerSecond: 500, creditsPerDay: 3_000_000 },
  developer: { creditsPerSecond: 4_000, creditsPerDay: 15_000_000 },
  team: { creditsPerSecond: 40_000, creditsPerDay: 75_000_000 },
  growth: { creditsPerSecond: null, creditsPerDay: null },
  custom: { creditsPerSecond: null, creditsPerDay: null },
  unlimited: { creditsPerSecond: null, creditsPerDay: null },
};

/**
 * Plans whose keys' heavy calls past their slots wait for one (within `maxQueuedHeavyBytes`) instead of answering
 * -32005 at once: devgate's own, so a development target does not refuse a test suite's parallel calls; a hosted
 * plan answers as the hosted gateway does.
 */
export const WAITING_PLANS: ReadonlySet<Plan> = new Set<Plan>(['unlimited']);

/** Plans whose keys may have outage requests forwarded to the partner provider. */
export const FORWARDING_PLANS: ReadonlySet<Plan> = new Set<Plan>(['growth', 'custom']);

/** A key's effective limits: its own where set (non-zero), else its plan's. */
export function effectiveLimits(plan: Plan, own?: { creditsPerSecond?: number; creditsPerDay?: number }): CreditLimits {
  const base = PLAN_LIMITS[plan];
  return {
    creditsPerSecond: own?.creditsPerSecond ? own.creditsPerSecond : base.creditsPerSecond,
    creditsPerDay: own?.creditsPerDay ? own.creditsPerDay : base.creditsPerDay,
  };
}
