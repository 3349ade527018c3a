/** What the explorer's modules share: its path prefix and its settings (from start()). */
import type { KnownAbi } from './abis.js';

/** The explorer's path prefix. */
export const EXPLORER_PATH = '/explorer';

export interface ExplorerSettings {
  /**
   * The compiled artifacts (`<Name>.json` with an `abi`) whose ABIs the page decodes with: every `.json` of `dirs`, and
   * `files`. Asked when the page first needs them (an eth seed's blocks, which name files, are read on demand).
   */
  readonly artifacts: () => { readonly dirs: readonly string[]; readonly files: readonly string[] };
  /** The ABIs of the artifacts the user handed devgate (`--artifacts`, `start({ artifacts })`), read at start (artifacts.ts). */
  readonly given: readonly KnownAbi[];
  /** The eth network each rollup network settles on, where its seed ties them (l1Acceptance by blocks). */
  readonly l1: Readonly<Record<string, string>>;
  /** Each rollup network's method prefix (its seed's `prefix`, `starknet` by default): what its reads are sent under. */
  readonly prefix: Readonly<Record<string, string>>;
}

/** Headers on every explorer answer (serve.ts says why each). */
export const SECURITY: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};
