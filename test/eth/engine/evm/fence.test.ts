/**
 * The fence around @ethereumjs: the fast path runs only on the exact versions it was tested with and not with
 * DEVGATE_EVM_FAST_PATH=0, and the stock files src/eth/engine/evm/ reimplements, hooks or reads private members of
 * (the fast path, the call clock, the block drafts, the state managers' internals) are the ones it was written
 * against: a release that changes any of them fails here, naming the file, so an upgrade is reviewed in one place
 * (src/eth/engine/evm/README.md says how).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decide, TESTED_VERSIONS } from '../../../../src/eth/engine/evm/gate.js';

/** sha256 (first 16 hex digits) of the stock files, as installed for the tested versions. */
const STOCK_FILES: Readonly<Record<string, string>> = {
  'evm/dist/esm/interpreter.js': '27106c4194446a01',
  'evm/dist/esm/evm.js': 'e978f659e72aeb8e',
  // frame.ts pools memories (a fresh one is 8 KB of zeros) and makes a Stack as the Interpreter's constructor does;
  // message.ts reads a Memory's bytes (`_store`) and a Message's `_codeAddress` (a CALLCODE's) for the tracers.
  'evm/dist/esm/memory.js': 'd5203f84ad27c846',
  'evm/dist/esm/message.js': '3686f4c11921ec87',
  'evm/dist/esm/stack.js': 'b79441161e8b289d',
  'evm/dist/esm/opcodes/functions.js': '9a73c68a74d15dd4',
  'evm/dist/esm/opcodes/gas.js': '72087f58b0b78e2f',
  'evm/dist/esm/opcodes/util.js': 'a9ae8a7bd71c0580',
  'evm/dist/esm/opcodes/EIP2929.js': '6a7291137c06c2aa',
  'evm/dist/esm/opcodes/EIP7928.js': '1294c92cc0f875dd',
  'evm/dist/esm/opcodes/codes.js': '46e6b74f7cff1256',
  'vm/dist/esm/runTx.js': 'e64717c0ff4046a6',
  // blockBuilder.ts: BlockBuilder's private lists, gas counters, miner value, header data and status check (eth_simulateV1
  // and mining/draft.ts run transactions outside addTransaction and record them as it does); its initState, with
  // runBlock.js's accumulateParentBeaconBlockRoot and accumulateParentBlockHash, done as they do it (writeSystemSlots).
  'vm/dist/esm/buildBlock.js': '5c6e6252e0870594',
  'vm/dist/esm/requests.js': '4191bd4fae1a47e4',
  // logsAhead.ts: Bloom.prototype.add taking a hash made ahead (runTx's txLogsBloom calls it after evm.runCall, which a
  // mining VM's wrapper awaits), and encodeReceipt made again with the logs' RLP made ahead.
  'vm/dist/esm/bloom/index.js': '5888dbeb594d42c5',
  'vm/dist/esm/runBlock.js': 'bb5073e6e02968cf',
  // blockBuilder.ts's sealedHeaderHash: a frozen header's hash() made and cached as hash() does (`cache`, `keccakFunction`).
  'block/dist/esm/header/header.js': '207bdc6b23b395ff',
  // account.ts: Account's own fields (a copy and a comparison that keep a partial account's nulls).
  'util/dist/esm/account.js': '5301330d4b00b5eb',
  // merkleState.ts: MerkleStateManager's caches, tries, code DB, key prefixes, keccak function and checkpoint count
  // (the head state's batch flush, the call-VM pool, the chain's state readers, the fork's lazy state), its trie's
  // node-cache size (a fork state's copy), its CheckpointDB read and written as it does, and MapDB's Map.
  'statemanager/dist/esm/merkleStateManager.js': '2e4fcfd5bdf860f3',
  // merkleState.ts's cache reads and writes (storageCacheGet/Put, accountCacheGet/Put, codeCacheGet): the caches' get
  // and put with their keys made through Buffer (their stores, checkpoint diffs and counters used as they use them).
  'statemanager/dist/esm/cache/storage.js': '3922a5da20838da5',
  'statemanager/dist/esm/cache/account.js': '1c89fe9794eb7433',
  'statemanager/dist/esm/cache/code.js': '6e4d338e6ae4d9e3',
  'mpt/dist/esm/mpt.js': 'b64e9c95e0751f21',
  'mpt/dist/esm/db/checkpointDB.js': '6fc492210cd63983',
  'util/dist/esm/mapDB.js': '3b415d2197a12b2e',
  // common.ts: Common's list of active EIPs (isActivatedEIP through a Set) and its chain parameters (deposit contract).
  'common/dist/esm/common.js': '0466f996894fc220',
  // vmState.ts: the journal's private state manager (eth_simulateV1's VMs pointed at one overlay state); journalKeys.ts:
  // its warm-address and warm-slot methods and touchAddress, with keys made through Buffer.
  'evm/dist/esm/journal.js': '664ee68ebc39fb3a',
  // feeMarketTx.ts: an EIP-1559 transaction made field for field as FeeMarket1559Tx's constructor and sharedConstructor
  // make it (same prototype, fields and order; the stock constructor for anything its checks might refuse).
  'tx/dist/esm/1559/tx.js': '82666285e1b2cc7e',
  'tx/dist/esm/util/internal.js': 'db9a46e2c7dbefc5',
};

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(dirname(dirname(require.resolve(`@ethereumjs/${name}`))));

describe('the fence around @ethereumjs', () => {
  it('decides: on for the tested versions, off (with a warning) for others, off (silently) with DEVGATE_EVM_FAST_PATH=0', () => {
    const tested = (name: string) => TESTED_VERSIONS[name]!;
    expect(decide({}, tested)).toEqual({ on: true });
    expect(decide({ DEVGATE_EVM_FAST_PATH: '0' }, tested)).toEqual({ on: false, why: 'DEVGATE_EVM_FAST_PATH=0', warn: false });
    expect(decide({}, (name) => (name === '@ethereumjs/vm' ? '10.1.4' : tested(name)))).toEqual({
      on: false,
      why: '@ethereumjs/vm is 10.1.4, the EVM fast path was tested with 10.1.3',
      warn: true,
    });
  });

  it('the installed versions are the tested ones, as package.json pins them', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    for (const [name, version] of Object.entries(TESTED_VERSIONS)) {
      expect(pkg.dependencies[name]).toBe(version);
      expect((JSON.parse(readFileSync(join(packageDir(name.split('/')[1]!), 'package.json'), 'utf8')) as { version: string }).version).toBe(version);
    }
    for (const [name, range] of Object.entries(pkg.dependencies)) if (name.startsWith('@ethereumjs/')) expect(range, name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the stock files the fast path reimplements or hooks are the ones it was written against', () => {
    for (const [file, digest] of Object.entries(STOCK_FILES)) {
      const [pkg, ...rest] = file.split('/');
      const text = readFileSync(join(packageDir(pkg!), ...rest));
      expect(createHash('sha256').update(text).digest('hex').slice(0, 16), `@ethereumjs/${file} changed: review src/eth/engine/evm/README.md`).toBe(digest);
    }
  });

  it('DEVGATE_EVM_FAST_PATH=0 runs every EVM stock, and calls still answer', () => {
    const script = `
      const { interpreterPatched } = await import('./src/eth/engine/evm/index.ts');
      const { start } = await import('./src/index.ts');
      const gw = await start({ port: 0, chains: ['chains/sepolia.json'], cache: false });
      const r = await fetch(gw.url('sepolia'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', data: '0x18160ddd' }] }) });
      console.log(JSON.stringify({ interpreterPatched, answer: await r.json() }));
      await gw.stop();`;
    const run = (env: Record<string, string>) => {
      const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: { ...process.env, ...env, VITEST: '' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as { interpreterPatched: boolean; answer: { result: string } };
    };
    const off = run({ DEVGATE_EVM_FAST_PATH: '0' });
    const on = run({});
    expect(off.interpreterPatched).toBe(false);
    expect(on.interpreterPatched).toBe(true);
    expect(off.answer.result).toMatch(/^0x[0-9a-f]{64}$/);
    expect(off.answer).toEqual(on.answer);
  });
});
