/**
 * API keys: the keys file (`--keys FILE`, `start({ keys })`), validated with zod, and the store the
 * gateway looks keys up in. Without a keys file the store is open: any well-formed key works, on
 * the `unlimited` plan (no rate or daily limit) unless `--plan` names another.
 */
import { readJsonFile } from '../../jsonFile.js';
import { z } from 'zod';
import { formatIssues } from '../../seed/load.js';
import { KEY_PATTERN } from '../route.js';
import { PLANS, effectiveLimits, type CreditLimits, type Plan } from './plans.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const Allowlist = z
  .object({
    /** JSON-RPC method names. */
    methods: z.array(z.string().min(1)).optional(),
    /** `Origin` values: `example.com`, `https://example.com`, `*.example.com`. */
    origins: z.array(z.string().min(1)).optional(),
    /** Substrings of the `User-Agent` header. */
    userAgents: z.array(z.string().min(1)).optional(),
    /** Contract addresses the address-taking methods may query. */
    contracts: z.array(z.string().regex(ADDRESS, 'expected a 0x-prefixed 20-byte hex address')).optional(),
  })
  .strict();
export type Allowlist = z.infer<typeof Allowlist>;

export const KeySpec = z
  .object({
    key: z.string().regex(KEY_PATTERN, 'a key is 1 to 64 characters from [A-Za-z0-9_-]'),
    plan: z.enum(PLANS),
    /** The key's secret, sent as HTTP Basic auth with an empty user name. */
    secret: z.string().min(1).optional(),
    /** Whether every request must carry the secret (default true when a secret is set). */
    requireSecret: z.boolean().optional(),
    allowlist: Allowlist.optional(),
    /** false: this key gets no dev methods (evm_, anvil_, hardhat_, devnet_): -32601, exactly as the hosted gateway. */
    devMethods: z.boolean().optional(),
    /** Own limits; 0 (or absent) means the plan's default. */
    limits: z
      .object({
        creditsPerSecond: z.number().int().min(0).optional(),
        creditsPerDay: z.number().int().min(0).optional(),
        /** Heavy calls this key may run at once (default: the gateway's maxConcurrentHeavy, 16). */
        maxConcurrentHeavy: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type KeySpec = z.infer<typeof KeySpec>;

/** An admin token: 1 to 256 visible ASCII characters (no spaces), as `Authorization: Bearer <token>` carries it. */
export const AdminToken = z.string().regex(/^[\x21-\x7e]{1,256}$/, 'an admin token is 1 to 256 visible ASCII characters, no spaces');

export const KeysFile = z
  .object({
    /** The admin interface's token (`--admin-token` and `DEVGATE_ADMIN_TOKEN` win; default: made at start). */
    adminToken: AdminToken.optional(),
    /** Whether keys not listed are accepted (default false in a keys file). */
    open: z.boolean().default(false),
    /** The plan of keys not listed, when open. */
    defaultPlan: z.enum(PLANS).default('developer'),
    keys: z.array(KeySpec).default([]),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.keys.forEach((k, i) => {
      if (seen.has(k.key)) ctx.addIssue({ code: 'custom', path: ['keys', i, 'key'], message: `duplicate key ${JSON.stringify(k.key)}` });
      seen.add(k.key);
    });
  });
export type KeysConfig = z.infer<typeof KeysFile>;

/** The configuration when no keys file is given. */
export const OPEN_KEYS: KeysConfig = { open: true, defaultPlan: 'unlimited', keys: [] };

export class KeysError extends Error {
  override name = 'KeysError';
}

/** Validates a keys object; `source` names it in error messages. */
export function parseKeys(value: unknown, source: string): KeysConfig {
  const result = KeysFile.safeParse(value);
  if (!result.success) throw new KeysError(`invalid keys ${source}:\n${formatIssues(result.error)}`);
  return result.data;
}

/** Reads and validates a keys file. */
export function loadKeysFile(path: string): KeysConfig {
  const value = readJsonFile(path, 'keys file', (message) => new KeysError(message));
  return parseKeys(value, `file ${path}`);
}

/** A key as the gateway applies it. */
export interface ResolvedKey {
  readonly key: string;
  readonly plan: Plan;
  readonly secret?: string;
  readonly requireSecret: boolean;
  readonly allowlist?: Allowlist;
  readonly limits: CreditLimits;
  /** Whether this key may call the dev methods (evm_, anvil_, hardhat_). */
  readonly devMethods: boolean;
  /** Its own limit of heavy calls at once, if it has one. */
  readonly maxConcurrentHeavy?: number;
  /** Whether the key is listed (false: accepted because the store is open). */
  readonly listed: boolean;
}

function resolve(spec: KeySpec, listed: boolean): ResolvedKey {
  return {
    key: spec.key,
    plan: spec.plan,
    secret: spec.secret,
    requireSecret: spec.secret !== undefined && spec.requireSecret !== false,
    allowlist: spec.allowlist,
    limits: effectiveLimits(spec.plan, spec.limits),
    devMethods: spec.devMethods !== false,
    maxConcurrentHeavy: spec.limits?.maxConcurrentHeavy,
    listed,
  };
}

/** The keys the gateway knows, changeable at run time (admin interface, start() handle). */
export class KeyStore {
  private readonly specs = new Map<string, KeySpec>();
  private readonly resolved = new Map<string, ResolvedKey>();
  /** Keys of an open store that are not listed, resolved on the current default plan (remembered, not listed). */
  private readonly unlisted = new Map<string, ResolvedKey>();
  private open: boolean;
  private defaultPlan: Plan;

  constructor(config: KeysConfig) {
    this.open = config.open;
    this.defaultPlan = config.defaultPlan;
    for (const spec of config.keys) this.set(spec);
  }

  /** The key, or undefined when it is unknown (and the store is closed). */
  lookup(key: string): ResolvedKey | undefined {
    const known = this.resolved.get(key);
    if (known !== undefined) return known;
    if (!this.open) return undefined;
    let unlisted = this.unlisted.get(key);
    if (unlisted === undefined || unlisted.plan !== this.defaultPlan) {
      if (this.unlisted.size >= 1024) this.unlisted.clear();
      this.unlisted.set(key, (unlisted = resolve({ key, plan: this.defaultPlan }, false)));
    }
    return unlisted;
  }

  /** Whether a key is listed (set in the keys file or through the admin interface). */
  isListed(key: string): boolean {
    return this.specs.has(key);
  }

  list(): KeySpec[] {
    return [...this.specs.values()];
  }

  /** Adds or replaces a key. */
  set(spec: KeySpec): KeySpec {
    this.specs.set(spec.key, spec);
    this.resolved.set(spec.key, resolve(spec, true));
    return spec;
  }

  remove(key: string): boolean {
    this.resolved.delete(key);
    return this.specs.delete(key);
  }

  mode(): { open: boolean; defaultPlan: Plan } {
    return { open: this.open, defaultPlan: this.defaultPlan };
  }

  setMode(mode: { open?: boolean; defaultPlan?: Plan }): { open: boolean; defaultPlan: Plan } {
    if (mode.open !== undefined) this.open = mode.open;
    if (mode.defaultPlan !== undefined) this.defaultPlan = mode.defaultPlan;
    return this.mode();
  }
}
