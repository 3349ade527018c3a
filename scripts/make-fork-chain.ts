/**
 * Builds the fork-crossing test chain deterministically with @ethereumjs and writes
 * test/fixtures/forks/{genesis.json,chain.rlp,blobs.json}:
 *
 * - genesis.json: a geth genesis with a hardfork schedule: homestead at 0, later forks by block
 *   number, the merge by terminalTotalDifficulty, shanghai..bpo2 by timestamp, a blobSchedule
 *   (mainnet values up to osaka, devnet values for bpo1/bpo2) and the Prague system contracts.
 * - chain.rlp: every block from genesis on, as `geth export` writes it. Proof-of-work blocks carry
 *   canonical ethash difficulties but no ethash seal (nonce and mixHash are zero).
 * - blobs.json: the sidecar of each blob: the text it encodes, its KZG commitment and proof.
 *
 * Transactions: type 0 without and with EIP-155, type 1, 2, 3 (blobs, real KZG) and 4 (EIP-7702),
 * contract creations, logs, reverts, withdrawals; blob blocks above target so excess blob gas grows.
 *
 * The schedule, its Common and the geth genesis are in scripts/forkChain/schedule.ts; the blobs and
 * their KZG proofs in scripts/forkChain/blobs.ts.
 *
 * Run: npx tsx scripts/make-fork-chain.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createBlock, createBlockHeader, type Block, type BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import {
  Account,
  Address,
  bytesToHex,
  createAddressFromPrivateKey,
  createContractAddress,
  eoaCode7702SignAuthorization,
  hexToBytes,
  type PrefixedHexString,
  utf8ToBytes,
} from '@ethereumjs/util';
import { buildBlock, createVM, type VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeChain } from '../src/eth/engine/build/rlp.js';
import { blobRecords, makeBlobs, proveBlobs } from './forkChain/blobs.js';
import {
  BLOCK_FORKS,
  CHAIN_ID,
  chainCommon,
  GENESIS_TIME,
  gethGenesisJson,
  LAST_BLOCK,
  MERGE_BLOCK,
  SYSTEM_CONTRACTS,
  TIME_FORKS,
  timeOf,
} from './forkChain/schedule.js';

const OUT = fileURLToPath(new URL('../test/fixtures/forks/', import.meta.url));
const GWEI = 1_000_000_000n;
const ETHER = GWEI * GWEI;

const hash = (text: string) => keccak_256(utf8ToBytes(text));
const hex = (b: Uint8Array) => bytesToHex(b);

/**
 * Store: with calldata, stores its first word in slot 0 and logs `Stored(address indexed, uint256)`;
 * without, returns slot 0. No PUSH0, so it runs from homestead on.
 */
const TOPIC_STORED = hex(hash('Stored(address,uint256)')).slice(2);
const STORE_RUNTIME = `0x361560375760003580600055600052337f${TOPIC_STORED}60206000a2005b60005460005260206000f3`;
/** Reverter: reverts with a 32-byte payload (42). Before byzantium REVERT is an invalid opcode. */
const REVERTER_RUNTIME = '0x602a60005260206000fd';

/** Init code that returns `runtime` as the contract's code. */
function deployCode(runtime: string): PrefixedHexString {
  const body = runtime.slice(2);
  const len = body.length / 2;
  if (len > 255) throw new Error('runtime too long for this init code');
  const l = len.toString(16).padStart(2, '0');
  return `0x60${l}600c60003960${l}6000f3${body}`;
}

interface Actor {
  readonly key: Uint8Array;
  readonly address: Address;
  nonce: bigint;
}

const actors: Actor[] = [0, 1, 2, 3].map((i) => {
  const key = hash(`devgate fork chain account ${i}`);
  return { key, address: createAddressFromPrivateKey(key), nonce: 0n };
});
const [alice, bob, carol, dave] = actors as [Actor, Actor, Actor, Actor];
const COINBASE = new Address(hash('devgate fork chain coinbase').slice(0, 20));

type TxKind = 'legacy-unprotected' | 'legacy' | 'access-list' | 'fee-market' | 'blob' | 'set-code';
interface TxPlan {
  kind: TxKind;
  from: Actor;
  to?: Address;
  value?: bigint;
  data?: PrefixedHexString;
  gas?: bigint;
  blobs?: number;
  authorize?: { authority: Actor; delegate: Address };
}

function makeTx(plan: TxPlan, common: Common, baseFee: bigint | undefined): TypedTransaction {
  const nonce = plan.from.nonce++;
  const base = { nonce, to: plan.to, value: plan.value ?? 0n, data: plan.data ?? '0x', gasLimit: plan.gas ?? 100_000n };
  const tip = 2n * GWEI;
  const maxFee = (baseFee ?? 0n) * 2n + tip;
  const accessList = plan.to === undefined || plan.data === undefined ? [] : [{ address: plan.to.toString(), storageKeys: [hex(new Uint8Array(32))] }];
  switch (plan.kind) {
    case 'legacy-unprotected': {
      // Signed under homestead rules: no chain id in v (27/28), valid on every later fork too.
      const homestead = common.copy();
      homestead.setHardfork('homestead');
      return createLegacyTx({ ...base, gasPrice: (baseFee ?? 0n) + 3n * GWEI }, { common: homestead }).sign(plan.from.key);
    }
    case 'legacy':
      return createLegacyTx({ ...base, gasPrice: (baseFee ?? 0n) + 3n * GWEI }, { common }).sign(plan.from.key);
    case 'access-list':
      return createAccessList2930Tx({ ...base, gasPrice: (baseFee ?? 0n) + 3n * GWEI, accessList }, { common }).sign(plan.from.key);
    case 'fee-market':
      return createFeeMarket1559Tx({ ...base, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, accessList }, { common }).sign(plan.from.key);
    case 'blob':
      return createBlob4844Tx(
        { ...base, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, maxFeePerBlobGas: GWEI, blobVersionedHashes: makeBlobs(plan.blobs ?? 1) },
        { common },
      ).sign(plan.from.key);
    case 'set-code': {
      const { authority, delegate } = plan.authorize!;
      const auth = eoaCode7702SignAuthorization(
        { chainId: `0x${CHAIN_ID.toString(16)}`, address: delegate.toString(), nonce: `0x${authority.nonce.toString(16)}` },
        authority.key,
      );
      authority.nonce++;
      return createEOACode7702Tx({ ...base, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, accessList, authorizationList: [auth] }, { common }).sign(
        plan.from.key,
      );
    }
  }
}

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as PrefixedHexString;
const contractAt = (from: Actor, nonce: bigint) => createContractAddress(from.address, nonce);

const store = contractAt(alice, 0n);
let reverter: Address | undefined;

/** The transactions of block `n`. */
function plan(n: number): TxPlan[] {
  const transfer = (kind: TxKind, from: Actor, to: Actor, value: bigint): TxPlan => ({ kind, from, to: to.address, value, gas: 21_000n });
  const call = (kind: TxKind, from: Actor, value: number): TxPlan => ({ kind, from, to: store, data: word(value) });
  if (n === 1)
    return [{ kind: 'legacy-unprotected', from: alice, data: deployCode(STORE_RUNTIME), gas: 200_000n }, transfer('legacy-unprotected', bob, carol, ETHER)];
  if (n < BLOCK_FORKS.spuriousDragon) return [call('legacy-unprotected', bob, n), transfer('legacy-unprotected', carol, dave, 2n * ETHER)];
  if (n < BLOCK_FORKS.byzantium) return [call('legacy', alice, n), transfer('legacy', dave, bob, ETHER / 2n), transfer('legacy-unprotected', carol, alice, 1n)];
  if (n === BLOCK_FORKS.byzantium) reverter = contractAt(carol, carol.nonce);
  if (n === BLOCK_FORKS.byzantium) return [{ kind: 'legacy', from: carol, data: deployCode(REVERTER_RUNTIME), gas: 100_000n }, call('legacy', bob, n)];
  if (n < BLOCK_FORKS.berlin)
    return [{ kind: 'legacy', from: alice, to: reverter!, gas: 50_000n }, call('legacy', dave, n), transfer('legacy', bob, carol, 3n)];
  if (n < BLOCK_FORKS.london) return [call('access-list', alice, n), transfer('access-list', carol, bob, ETHER), call('legacy', dave, n + 1000)];
  if (n < MERGE_BLOCK) return [call('fee-market', bob, n), transfer('access-list', alice, dave, 5n), transfer('legacy', carol, alice, 7n)];
  if (n < TIME_FORKS.cancun)
    return [
      call('fee-market', alice, n),
      { kind: 'fee-market', from: dave, data: deployCode(STORE_RUNTIME), gas: 200_000n },
      transfer('fee-market', bob, carol, ETHER),
    ];
  if (n < TIME_FORKS.prague)
    return [{ kind: 'blob', from: alice, to: bob.address, blobs: 2 }, { kind: 'blob', from: carol, to: dave.address, blobs: 2 }, call('fee-market', bob, n)];
  if (n === TIME_FORKS.prague) {
    return [
      { kind: 'set-code', from: alice, to: dave.address, data: word(n), authorize: { authority: dave, delegate: store } },
      { kind: 'blob', from: bob, to: carol.address, blobs: 6 },
      { kind: 'blob', from: carol, to: alice.address, blobs: 1 },
    ];
  }
  if (n < TIME_FORKS.osaka)
    return [
      { kind: 'fee-market', from: bob, to: dave.address, data: word(n) },
      { kind: 'blob', from: alice, to: bob.address, blobs: 4 },
      { kind: 'blob', from: carol, to: bob.address, blobs: 3 },
    ];
  if (n < TIME_FORKS.bpo1)
    return [{ kind: 'blob', from: alice, to: carol.address, blobs: 6 }, { kind: 'blob', from: bob, to: carol.address, blobs: 1 }, call('legacy', dave, n)];
  if (n < TIME_FORKS.bpo2)
    return [{ kind: 'blob', from: alice, to: dave.address, blobs: 3 }, { kind: 'blob', from: bob, to: dave.address, blobs: 2 }, call('access-list', carol, n)];
  return [{ kind: 'blob', from: carol, to: alice.address, blobs: 4 }, { kind: 'blob', from: dave, to: alice.address, blobs: 2 }, call('fee-market', bob, n)];
}

async function buildChain(): Promise<{ genesis: Block; blocks: Block[]; tds: bigint[]; alloc: Record<string, object> }> {
  const common = chainCommon();
  const stateManager = new MerkleStateManager({ common, trie: new MerklePatriciaTrie({ useKeyHashing: true }), caches: new Caches() });
  const alloc: Record<string, object> = {};
  for (const a of actors) {
    await stateManager.putAccount(a.address, new Account(0n, 1000n * ETHER));
    alloc[a.address.toString()] = { balance: `0x${(1000n * ETHER).toString(16)}` };
  }
  for (const [address, code] of Object.entries(SYSTEM_CONTRACTS)) {
    const addr = new Address(hexToBytes(address as PrefixedHexString));
    await stateManager.putAccount(addr, new Account(1n, 0n));
    await stateManager.putCode(addr, hexToBytes(code as PrefixedHexString));
    alloc[address] = { balance: '0x0', nonce: '0x1', code };
  }
  await stateManager.checkpoint();
  await stateManager.commit();
  const genesis = createBlock(
    {
      header: {
        number: 0n,
        stateRoot: await stateManager.getStateRoot(),
        timestamp: BigInt(GENESIS_TIME),
        gasLimit: 30_000_000n,
        difficulty: 131_072n,
        extraData: utf8ToBytes('devgate forks'),
      },
    },
    { common },
  );
  const vm: VM = await createVM({ common, stateManager });
  let parent = genesis;
  const blocks: Block[] = [];
  const tds: bigint[] = [genesis.header.difficulty];
  for (let n = 1; n <= LAST_BLOCK; n++) {
    const timestamp = BigInt(timeOf(n));
    vm.common.setHardforkBy({ blockNumber: BigInt(n), timestamp });
    const pos = n >= MERGE_BLOCK;
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: {
        timestamp,
        coinbase: COINBASE,
        // At the london block the gas target stays and the limit doubles (EIP-1559 elasticity).
        gasLimit: n === BLOCK_FORKS.london ? parent.header.gasLimit * 2n : parent.header.gasLimit,
        extraData: utf8ToBytes(`block ${n}`),
        ...(pos && { mixHash: hash(`randao ${n}`) }),
        ...(vm.common.isActivatedEIP(4788) && { parentBeaconBlockRoot: hash(`beacon root ${n}`) }),
      },
      withdrawals: vm.common.isActivatedEIP(4895)
        ? [0, 1].map((i) => ({
            index: BigInt(2 * n + i),
            validatorIndex: BigInt(i + 7),
            address: actors[(n + i) % 4]!.address,
            amount: BigInt(1_000_000 * (n + i)),
          }))
        : undefined,
      blockOpts: { calcDifficultyFromHeader: pos ? undefined : parent.header, putBlockIntoBlockchain: false },
    });
    const baseFee = !vm.common.isActivatedEIP(1559)
      ? undefined
      : n === BLOCK_FORKS.london
        ? vm.common.param('initialBaseFee')
        : parent.header.calcNextBaseFee();
    for (const p of plan(n)) {
      const tx = makeTx(p, vm.common, baseFee);
      await builder.addTransaction(tx, { allowNoBlobs: true });
    }
    if (n === UNCLE_INCLUDED_AT) await creditUncleRewards(vm, n);
    let { block } = await builder.build();
    if (n === UNCLE_INCLUDED_AT) block = withUncle(block, uncleOf(blocks[n - 3] ?? genesis, n - 1, vm.common), vm.common);
    blocks.push(block);
    tds.push(tds[tds.length - 1]! + block.header.difficulty);
    parent = block;
  }
  return { genesis, blocks, tds, alloc };
}

/** Block 10 includes an uncle: a sibling of block 9 mined by UNCLE_MINER (PoW rewards for both). */
const UNCLE_INCLUDED_AT = 10;
const UNCLE_MINER = new Address(hash('devgate fork chain uncle miner').slice(0, 20));

/** A valid ethash-era header at `number` on `parent`, other than the canonical one (its own miner and time). */
function uncleOf(parent: Block, number: number, common: Common): BlockHeader {
  const uncleCommon = common.copy();
  uncleCommon.setHardforkBy({ blockNumber: BigInt(number), timestamp: BigInt(timeOf(number) + 1) });
  return createBlockHeader(
    {
      parentHash: parent.hash(),
      number: BigInt(number),
      timestamp: BigInt(timeOf(number) + 1),
      coinbase: UNCLE_MINER,
      gasLimit: parent.header.gasLimit,
      stateRoot: parent.header.stateRoot,
      extraData: utf8ToBytes('uncle'),
    },
    { common: uncleCommon, calcDifficultyFromHeader: parent.header },
  );
}

/**
 * The rewards an uncle brings (the builder knows only the miner's base reward): the uncle's miner
 * gets (8 + uncle number - number) / 8 of the block reward, the including miner 1/32 more.
 */
async function creditUncleRewards(vm: VM, n: number): Promise<void> {
  const reward = vm.common.param('minerReward');
  const credit = async (address: Address, amount: bigint) => {
    const account = (await vm.stateManager.getAccount(address)) ?? new Account();
    account.balance += amount;
    await vm.stateManager.putAccount(address, account);
  };
  await credit(UNCLE_MINER, ((8n + BigInt(n - 1) - BigInt(n)) * reward) / 8n);
  await credit(COINBASE, reward / 32n);
}

/** The same block with an uncle in its body and header (state and receipts are unchanged by that). */
function withUncle(block: Block, uncle: BlockHeader, common: Common): Block {
  const header = { ...block.header.toJSON(), uncleHash: keccak_256(RLP.encode([uncle.raw()])) };
  return createBlock({ header, transactions: block.transactions, uncleHeaders: [uncle.toJSON()] }, { common });
}

async function main() {
  const started = Date.now();
  const { genesis, blocks, tds, alloc } = await buildChain();
  // geth's rule: the terminal PoW block is the last one whose parent's TD is below the TTD.
  const ttd = tds[MERGE_BLOCK - 1]!;
  mkdirSync(OUT, { recursive: true });
  proveBlobs(OUT);
  writeFileSync(`${OUT}genesis.json`, `${JSON.stringify(gethGenesisJson(genesis, ttd, alloc), null, 2)}\n`);
  writeFileSync(`${OUT}chain.rlp`, encodeChain([genesis, ...blocks]));
  writeFileSync(`${OUT}blobs.json`, `${JSON.stringify(blobRecords, null, 1)}\n`);
  const txCount = blocks.reduce((s, b) => s + b.transactions.length, 0);
  console.log(`genesis ${hex(genesis.hash())}`);
  console.log(`${blocks.length} blocks, ${txCount} transactions, ${blobRecords.length} blobs, head ${hex(blocks[blocks.length - 1]!.hash())}`);
  console.log(`terminal total difficulty ${ttd} (first PoS block ${MERGE_BLOCK}), built in ${Date.now() - started} ms`);
}

await main();
