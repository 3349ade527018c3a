/**
 * A slice of the public Ethereum state tests (ethereum/tests GeneralStateTests, vendored under
 * test/fixtures/state-tests with their licence) run through a stock @ethereumjs VM and through one opted into
 * devgate's EVM fast path (src/eth/engine/evm): every case must give the post-state root and logs hash the
 * fixture states, on both. The fence around @ethereumjs (evm/gate.ts) turns the fast path off on any other
 * @ethereumjs version; this is what checks it on the tested one, beyond the hand-picked cases of evmFastPath.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP } from '@ethereumjs/tx';
import { bytesToHex, createAccount, createAddressFromString, hexToBytes, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { interpreterPatched, speedUpInterpreter } from '../../../../src/eth/engine/evm/index.js';
import { lazyKzg } from '../../../../src/eth/engine/exec/kzg.js';

const ROOT = 'test/fixtures/state-tests/GeneralStateTests';
/**
 * The vendored files hold 2,430 Cancun cases (~30 ms each on stock and fast EVMs together, quiet machine): the suite
 * runs every 8th (a fixed, even slice of every folder); `STATE_TESTS=all` runs every case.
 */
const MODE = process.env.STATE_TESTS;
const EVERY = MODE === 'all' || MODE === 'heavy' ? 1 : 4;
/**
 * Loops to their gas limit, minutes each on a JavaScript EVM (loopMul alone ~4-6 min): they test speed, not rules,
 * and run only with `STATE_TESTS=heavy`.
 */
const HEAVY = /vmPerformance\/|CannotBeDosd/;
type Hex = `0x${string}`;

interface StateTest {
  env: Record<string, Hex>;
  pre: Record<string, { balance: Hex; nonce: Hex; code: Hex; storage: Record<string, Hex> }>;
  post: Record<string, { hash: Hex; logs: Hex; txbytes: Hex; expectException?: string; indexes: Record<string, number> }[]>;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.json') ? [p] : [];
  });
}

const FORKS: Record<string, Hardfork> = { Cancun: Hardfork.Cancun, Prague: Hardfork.Prague, Osaka: Hardfork.Osaka };

interface Outcome {
  root: string;
  logs: string;
  error?: string;
}

/** Runs one post entry's transaction on a VM built from the test's pre-state; fast opts the VM into the fast path. */
async function run(test: StateTest, fork: Hardfork, txbytes: Hex, fast: boolean): Promise<Outcome> {
  const common = new Common({ chain: Mainnet, hardfork: fork, customCrypto: { kzg: lazyKzg } });
  const vm = await createVM({ common });
  if (fast) speedUpInterpreter(vm.evm);
  const sm = vm.stateManager;
  for (const [address, acct] of Object.entries(test.pre)) {
    const a = createAddressFromString(address);
    await sm.putAccount(a, createAccount({ balance: BigInt(acct.balance), nonce: BigInt(acct.nonce) }));
    if (acct.code !== '0x') await sm.putCode(a, hexToBytes(acct.code));
    for (const [k, v] of Object.entries(acct.storage)) {
      const value = unpadBytes(hexToBytes(v));
      if (value.length > 0) await sm.putStorage(a, setLengthLeft(hexToBytes(k as Hex), 32), value);
    }
  }
  const e = test.env;
  const block = createBlock(
    {
      header: {
        coinbase: e.currentCoinbase,
        difficulty: 0n,
        mixHash: e.currentRandom,
        gasLimit: BigInt(e.currentGasLimit),
        number: BigInt(e.currentNumber),
        timestamp: BigInt(e.currentTimestamp),
        baseFeePerGas: BigInt(e.currentBaseFee ?? '0x0'),
        excessBlobGas: BigInt(e.currentExcessBlobGas ?? '0x0'),
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
  let logs: Uint8Array[] = [];
  let error: string | undefined;
  try {
    const tx = createTxFromRLP(hexToBytes(txbytes), { common });
    const result = await runTx(vm, { tx, block });
    logs = (result.receipt.logs ?? []) as unknown as Uint8Array[];
  } catch (err) {
    error = (err as Error).message.slice(0, 120);
  }
  return { root: bytesToHex(await sm.getStateRoot()), logs: bytesToHex(keccak_256(RLP.encode(logs))), error };
}

const cases: { dir: string; name: string; fork: Hardfork; test: StateTest; post: StateTest['post'][string][number] }[] = [];
let seen = 0;
for (const file of files(ROOT)) {
  const tests = JSON.parse(readFileSync(file, 'utf8')) as Record<string, StateTest>;
  for (const [name, test] of Object.entries(tests)) {
    for (const [forkName, posts] of Object.entries(test.post)) {
      const fork = FORKS[forkName];
      if (fork === undefined) continue;
      const rel = file.slice(ROOT.length + 1);
      if (MODE !== 'heavy' && HEAVY.test(rel)) continue;
      for (const post of posts) {
        if (seen++ % EVERY !== 0) continue;
        cases.push({
          dir: rel.split('/')[0]!,
          name: `${rel} ${name} ${forkName} d${post.indexes.data}g${post.indexes.gas}v${post.indexes.value}`,
          fork,
          test,
          post,
        });
      }
    }
  }
}

describe('ethereum/tests state tests, stock and fast EVM', () => {
  it('the slice has its cases and the fast path is in place', () => {
    expect(cases.length).toBeGreaterThan(2200 / EVERY);
    expect(interpreterPatched).toBe(true);
  });

  for (const dir of [...new Set(cases.map((c) => c.dir))]) {
    it(`${dir}: the fixture post-state root and logs hash, on the stock EVM and on the fast path`, { timeout: EVERY === 1 ? 3_600_000 : 300_000 }, async () => {
      const failures: string[] = [];
      const mine = cases.filter((c) => c.dir === dir);
      for (const c of mine) {
        const stock = await run(c.test, c.fork, c.post.txbytes, false);
        const fast = await run(c.test, c.fork, c.post.txbytes, true);
        const expected = { root: c.post.hash, logs: c.post.logs };
        if (stock.root !== expected.root || stock.logs !== expected.logs) failures.push(`stock ${c.name}: ${JSON.stringify(stock)}`);
        if (fast.root !== stock.root || fast.logs !== stock.logs || fast.error !== stock.error)
          failures.push(`fast ${c.name}: ${JSON.stringify(fast)} vs stock ${JSON.stringify(stock)}`);
      }
      expect(failures.slice(0, 20), `${failures.length} of ${mine.length} cases differ`).toEqual([]);
    });
  }
});
