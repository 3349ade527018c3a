/** What the explorer's modules share: its path prefix and its settings (from start()). */

/** The explorer's path prefix. */
export const EXPLORER_PATH = '/explorer';

export interface ExplorerSettings {
  /** Folders of compiled artifacts (`<Name>.json` with an `abi`) whose ABIs the page decodes with. */
  readonly artifactDirs: readonly string[];
  /** The eth network each rollup network settles on, where its seed ties them (l1Acceptance by blocks). */
  readonly l1: Readonly<Record<string, string>>;
}
