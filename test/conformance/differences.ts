/**
 * Where devgate's answers to ethereum/execution-apis's fixtures (geth's own answers, test/fixtures/execution-apis)
 * differ, and why. The runner (execution-apis.test.ts) holds every other fixture to exact JSON equality.
 *
 * Two lists:
 * - NOT_SERVED: methods devgate does not serve yet. Their fixtures are replayed (for what their other requests do,
 *   e.g. the sends of testing_buildBlockV1, which are held to geth's answers like any other) but each request of the
 *   method itself must answer -32601 "does not exist". Once the method is in the dispatch table the runner fails
 *   until its line here is deleted: then its fixtures must pass or be listed in DIFFERENCES. Enabling a method is
 *   deleting its line.
 * - DIFFERENCES: fixtures whose answers to served methods differ on purpose or for a reason written down. With a
 *   `patch`, devgate's answer after the patch must equal geth's exactly (so only the named difference is allowed);
 *   without one, the answer may differ anywhere but must keep the request's id. A listed fixture that passes
 *   unpatched fails the run: delete its entry.
 */

/** Why a fixture differs. */
export type Reason =
  /** SPEC.md speaks, and it says otherwise than geth today (SPEC wins). */
  | 'spec'
  /** devgate answers otherwise by choice (a quirk of geth it does not copy); the `why` says which. */
  | 'choice'
  /** geth behaviour devgate has not built yet. */
  | 'not-built';

export interface Difference {
  readonly reason: Reason;
  readonly why: string;
  /** Turns devgate's response (one parsed JSON-RPC response object) into what geth answered; applied to a copy. */
  readonly patch?: (response: any) => unknown;
}

/** Methods with fixtures that devgate does not serve yet, and where they are being built. */
export const NOT_SERVED: ReadonlyMap<string, string> = new Map([]);

/** SPEC 2.1 lists `totalDifficulty` in the block object; geth dropped it after the merge. */
const spec = (): Difference => ({
  reason: 'spec',
  why: 'SPEC 2.1 keeps totalDifficulty in the block object; geth no longer sends it',
  patch: (res) => {
    if (res.result !== null && typeof res.result === 'object') delete res.result.totalDifficulty;
    return res;
  },
});

/** Fixtures whose answers to served methods differ, by fixture id (`<method>/<file name without .io>`). */
export const DIFFERENCES: ReadonlyMap<string, Difference> = new Map<string, Difference>([
  ['eth_getBlockByHash/get-block-by-hash', spec()],
  ['eth_getBlockByNumber/get-block-cancun-fork', spec()],
  ['eth_getBlockByNumber/get-block-london-fork', spec()],
  ['eth_getBlockByNumber/get-block-merge-fork', spec()],
  ['eth_getBlockByNumber/get-block-prague-fork', spec()],
  ['eth_getBlockByNumber/get-block-shanghai-fork', spec()],
  ['eth_getBlockByNumber/get-finalized', spec()],
  ['eth_getBlockByNumber/get-genesis', spec()],
  ['eth_getBlockByNumber/get-latest', spec()],
  ['eth_getBlockByNumber/get-safe', spec()],
  // Its second request reads the head block (which the refused build left as it was): totalDifficulty again.
  ['testing_buildBlockV1/build-block-invalid-transaction', spec()],
  [
    'eth_capabilities/get-capabilities',
    {
      reason: 'choice',
      why:
        "geth's log index keeps a sliding window (2,350,000 blocks by default) and says so in logs.deleteStrategy; devgate " +
        'keeps every log from genesis and deletes none, so it sends no deleteStrategy (hive checks this fixture against the schema only)',
      patch: (res) => {
        if (res.result?.logs !== undefined) res.result.logs.deleteStrategy = { type: 'window', retentionBlocks: '0x23dbb0' };
        return res;
      },
    },
  ],
  [
    'txpool_content/get-content',
    {
      reason: 'choice',
      why:
        "geth's blob pool answers no content yet (BlobPool.Content returns empty maps, a TODO in geth) while txpool_status " +
        'counts its transactions; devgate lists pooled blob transactions in txpool_content like any other',
      patch: (res) => {
        for (const part of ['pending', 'queued']) {
          const bySender = res.result?.[part] ?? {};
          for (const [sender, byNonce] of Object.entries<Record<string, { type: string }>>(bySender)) {
            for (const [nonce, tx] of Object.entries(byNonce)) if (tx.type === '0x3') delete byNonce[nonce];
            if (Object.keys(byNonce).length === 0) delete bySender[sender];
          }
        }
        return res;
      },
    },
  ],
]);
