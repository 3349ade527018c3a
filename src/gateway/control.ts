/**
 * Programmatic control of a running gateway: keys, usage, outages and limits. The start() handle
 * (`gw.policy`) and the admin interface (`/admin`, methods `devgate_*`) offer exactly these operations.
 */
import type { z } from 'zod';
import { InvalidArgument } from '../errors.js';
import { formatIssues } from '../seed/load.js';
import { LimitsOptions, mergeLimits, type GatewayLimits } from './limits.js';
import type { Policy } from './policy/index.js';
import { KeySpec } from './policy/keys.js';
import { OutageSpec, type OutageInfo } from './policy/outage.js';
import { PLANS, type CreditLimits, type Plan } from './policy/plans.js';
import type { KeyUsageReport } from './policy/usage.js';

/** A key's usage with the plan and limits that apply to it. */
export interface UsageReport extends KeyUsageReport {
  plan: Plan;
  limits: CreditLimits;
}

/** A key as the control operations show it: its secret never in full, only `secretSet: true` when it has one. */
export type ListedKey = Omit<KeySpec, 'secret'> & { secretSet?: true };

export interface KeysListing {
  /** Whether keys not listed are accepted (on `defaultPlan`). */
  open: boolean;
  defaultPlan: Plan;
  keys: ListedKey[];
}

export interface GatewayControl {
  /** The configured keys, and whether unlisted keys are accepted. */
  listKeys(): KeysListing;
  /** Adds a key or replaces the key of the same name (a secret is set anew each time); answers it as listKeys shows it. */
  setKey(spec: z.input<typeof KeySpec>): ListedKey;
  /** Removes a listed key; true when it existed. */
  removeKey(key: string): boolean;
  /** Whether unlisted keys are accepted, and on which plan. */
  setKeysMode(mode: { open?: boolean; defaultPlan?: Plan }): { open: boolean; defaultPlan: Plan };
  /** Usage of one key, or of every key listed or seen. */
  getUsage(key: string): UsageReport;
  getUsage(): UsageReport[];
  /** Forgets usage (and rate windows) of one key, or all. */
  resetUsage(key?: string): void;
  /** Starts (or schedules) an outage of a network, replacing any it had. */
  setOutage(network: string, spec?: OutageSpec): OutageInfo;
  /** Ends or cancels the outage of a network; true when there was one. */
  clearOutage(network: string): boolean;
  /** Outages scheduled or under way. */
  listOutages(): OutageInfo[];
  getLimits(): GatewayLimits;
  /** Changes some limits; the rest keep their values. Body and message sizes apply to new requests and connections. */
  setLimits(change: LimitsOptions): GatewayLimits;
  /** Open connections: TCP sockets (HTTP and WebSocket alike) and, of them, WebSocket connections. */
  connections(): Connections;
}

export interface Connections {
  sockets: number;
  websockets: number;
}

/** A key without its secret. */
function listed({ secret, ...rest }: KeySpec): ListedKey {
  return secret === undefined ? rest : { ...rest, secretSet: true };
}

/** Validates input of a control operation; errors name the field. */
function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidArgument(`invalid ${what}: ${formatIssues(result.error).replace(/\n/g, '; ')}`);
  return result.data;
}

export function createControl(
  policy: Policy,
  networks: readonly string[],
  limits: { get(): GatewayLimits; set(next: GatewayLimits): void },
  connections: () => Connections = () => ({ sockets: 0, websockets: 0 }),
): GatewayControl {
  const checkNetwork = (network: unknown): string => {
    if (typeof network !== 'string' || !networks.includes(network)) {
      throw new InvalidArgument(`unknown network ${JSON.stringify(network)}; networks: ${networks.join(', ')}`);
    }
    return network;
  };
  const checkKey = (key: unknown): string => {
    if (typeof key !== 'string' || key === '') throw new InvalidArgument(`expected a key as a string, got ${JSON.stringify(key)}`);
    return key;
  };
  const report = (key: string): UsageReport => {
    const resolved = policy.keys.lookup(key);
    if (resolved === undefined) throw new InvalidArgument(`unknown key ${JSON.stringify(key)}`);
    return { ...policy.usage.report(key, policy.now()), plan: resolved.plan, limits: resolved.limits };
  };

  function getUsage(key: string): UsageReport;
  function getUsage(): UsageReport[];
  function getUsage(key?: string): UsageReport | UsageReport[] {
    if (key !== undefined) return report(checkKey(key));
    const names = new Set([...policy.keys.list().map((k) => k.key), ...policy.usage.keys()]);
    return [...names].filter((k) => policy.keys.lookup(k) !== undefined).map(report);
  }

  return {
    listKeys: () => ({ ...policy.keys.mode(), keys: policy.keys.list().map(listed) }),
    setKey: (spec) => listed(policy.keys.set(parse(KeySpec, spec, 'key'))),
    removeKey: (key) => policy.keys.remove(checkKey(key)),
    setKeysMode: (mode) => {
      if (mode === null || typeof mode !== 'object') throw new InvalidArgument('expected an object with open and/or defaultPlan');
      if (mode.open !== undefined && typeof mode.open !== 'boolean') throw new InvalidArgument('invalid mode: open: expected a boolean');
      if (mode.defaultPlan !== undefined && !(PLANS as readonly string[]).includes(mode.defaultPlan)) {
        throw new InvalidArgument(`invalid mode: defaultPlan: expected one of ${PLANS.join(', ')}`);
      }
      return policy.keys.setMode(mode);
    },
    getUsage,
    resetUsage: (key) => policy.resetUsage(key === undefined ? undefined : checkKey(key)),
    setOutage: (network, spec = {}) => policy.outages.set(checkNetwork(network), parse(OutageSpec, spec, 'outage'), policy.now()),
    clearOutage: (network) => policy.outages.clear(checkNetwork(network)),
    listOutages: () => policy.outages.list(policy.now()),
    getLimits: () => ({ ...limits.get() }),
    connections,
    setLimits: (change) => {
      const parsed = parse(LimitsOptions, change, 'limits');
      try {
        limits.set(mergeLimits(limits.get(), parsed));
      } catch (err) {
        throw new InvalidArgument(`invalid limits: ${(err as Error).message}`);
      }
      return { ...limits.get() };
    },
  };
}
