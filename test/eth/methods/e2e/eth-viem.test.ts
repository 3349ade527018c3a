/**
 * The eth_ read surface through viem's own actions, over HTTP and over WebSocket, against a gateway
 * started on port 0 with the read-surface test chain.
 */
import { readFileSync } from 'node:fs';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  encodeAbiParameters,
  getAddress,
  hexToBytes,
  http,
  keccak256,
  pad,
  parseAbiItem,
  toHex,
  webSocket,
  type Abi,
  type PublicClient,
} from 'viem';
import { start, type Gateway } from '../../../../src/index.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, EMITTER, REVERTER, STORAGE_LAYOUT, TOKEN, readSurfaceSeed, UNLIMITED } from '../seed.js';

const abi = (name: string) => JSON.parse(readFileSync(new URL(`../../../../chains/contracts/${name}.json`, import.meta.url), 'utf8')).abi as Abi;
const tokenAbi = abi('Token');
const reverterAbi = abi('Reverter');
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

let gw: Gateway;
const clients: Record<string, PublicClient> = {};

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  clients.http = createPublicClient({ transport: http(gw.url('dev')) }) as PublicClient;
  clients.ws = createPublicClient({ transport: webSocket(gw.wsUrl('dev')) }) as PublicClient;
});

afterAll(async () => {
  const ws = clients.ws?.transport as { getRpcClient?: () => Promise<{ close(): void }> } | undefined;
  await ws?.getRpcClient?.().then((c) => c.close());
  await gw?.stop();
});

/** The revert error viem raised, unwrapped. */
async function revertOf(p: Promise<unknown>): Promise<ContractFunctionRevertedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BaseError);
  const revert = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
  expect(revert).toBeInstanceOf(ContractFunctionRevertedError);
  return revert as ContractFunctionRevertedError;
}

const mappingPosition = (key: `0x${string}`, slot: bigint) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]));

describe.each(['http', 'ws'])('viem over %s', (transport) => {
  const c = () => clients[transport]!;

  it('reads chain id, block number, balances, code and nonces', async () => {
    expect(await c().getChainId()).toBe(1337);
    expect(await c().getBlockNumber({ cacheTime: 0 })).toBe(4n);
    expect(await c().getTransactionCount({ address: ACCOUNT0 })).toBe(11);
    expect(await c().getTransactionCount({ address: ACCOUNT0, blockTag: 'pending' })).toBe(12);
    expect(await c().getTransactionCount({ address: ACCOUNT0, blockNumber: 1n })).toBe(4);
    expect(await c().getBalance({ address: ACCOUNT2, blockNumber: 1n })).toBe(10_000n * 10n ** 18n);
    expect(await c().getBalance({ address: ACCOUNT2, blockNumber: 2n })).toBe(10_000n * 10n ** 18n + 3n);
    expect((await c().getCode({ address: TOKEN }))!.length).toBeGreaterThan(100);
    expect(await c().getCode({ address: TOKEN, blockNumber: 0n })).toBeUndefined();
  });

  it('gets blocks by number, hash and tag, with hashes or full transactions', async () => {
    const b2 = await c().getBlock({ blockNumber: 2n, includeTransactions: true });
    expect(b2.number).toBe(2n);
    expect(b2.transactions.map((t) => t.type)).toEqual(['eip1559', 'legacy', 'eip2930', 'eip1559', 'eip1559']);
    const byHash = await c().getBlock({ blockHash: b2.hash });
    expect(byHash.transactions).toEqual(b2.transactions.map((t) => t.hash));
    expect(byHash.parentHash).toBe((await c().getBlock({ blockNumber: 1n })).hash);
    const latest = await c().getBlock();
    expect(latest.number).toBe(4n);
    const pending = await c().getBlock({ blockTag: 'pending', includeTransactions: true });
    expect(pending.number).toBeNull();
    expect(pending.hash).toBeNull();
    expect(pending.nonce).toBeNull();
    expect(pending.logsBloom).toBeNull();
    expect(pending.transactions).toHaveLength(2);
    expect(pending.parentHash).toBe(latest.hash);
    expect((await c().getBlock({ blockTag: 'earliest' })).number).toBe(0n);
    expect((await c().getBlock({ blockTag: 'safe' })).number).toBe(0n);
    expect((await c().getBlock({ blockTag: 'finalized' })).number).toBe(0n);
  });

  it('gets transactions by hash and by block and index, mined and pending', async () => {
    const block = await c().getBlock({ blockNumber: 2n });
    const tx = await c().getTransaction({ hash: block.transactions[2]! });
    expect(tx.type).toBe('eip2930');
    expect(tx.accessList).toEqual([{ address: ACCOUNT2, storageKeys: [pad('0x01')] }]);
    expect(tx.blockNumber).toBe(2n);
    expect(tx.transactionIndex).toBe(2);
    expect(tx.from).toBe(ACCOUNT0);
    expect(tx.value).toBe(2n);
    expect(await c().getTransaction({ blockHash: block.hash, index: 2 })).toEqual(tx);
    expect(await c().getTransaction({ blockNumber: 2n, index: 2 })).toEqual(tx);
    const pendingBlock = await c().getBlock({ blockTag: 'pending' });
    const pending = await c().getTransaction({ hash: pendingBlock.transactions[0]! });
    expect(pending.blockHash).toBeNull();
    expect(pending.blockNumber).toBeNull();
    expect(pending.transactionIndex).toBeNull();
    const missing = await c()
      .getTransactionReceipt({ hash: pending.hash })
      .then(
        () => undefined,
        (e: Error) => e.name,
      );
    expect(missing).toBe('TransactionReceiptNotFoundError');
  });

  it('gets receipts with status, logs and effective gas price', async () => {
    const block = await c().getBlock({ blockNumber: 3n });
    const r = await c().getTransactionReceipt({ hash: block.transactions[0]! });
    expect(r.status).toBe('success');
    expect(r.from).toBe(ACCOUNT1);
    expect(r.to).toBe(TOKEN);
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]!.logIndex).toBe(0);
    expect(r.effectiveGasPrice).toBe(block.baseFeePerGas! + 10n ** 9n);
    const emit = await c().getTransactionReceipt({ hash: block.transactions[1]! });
    expect(emit.logs.map((l) => l.logIndex)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const creation = await c().getTransactionReceipt({ hash: (await c().getBlock({ blockNumber: 1n })).transactions[2]! });
    expect(creation.contractAddress).toBe(STORAGE_LAYOUT);
    expect(creation.to).toBeNull();
  });

  it('calls and reads contracts, at the latest and at past blocks', async () => {
    expect(await c().readContract({ address: TOKEN, abi: tokenAbi, functionName: 'balanceOf', args: [ACCOUNT1] })).toBe(990n);
    expect(await c().readContract({ address: TOKEN, abi: tokenAbi, functionName: 'balanceOf', args: [ACCOUNT1], blockNumber: 2n })).toBe(1000n);
    expect(await c().readContract({ address: TOKEN, abi: tokenAbi, functionName: 'balanceOf', args: [ACCOUNT1], blockNumber: 1n })).toBe(0n);
    expect(await c().readContract({ address: REVERTER, abi: reverterAbi, functionName: 'counter' })).toBe(1n);
    const { data } = await c().call({ to: REVERTER, data: '0x61bc221a' /* counter() */ });
    expect(BigInt(data!)).toBe(1n);
  });

  it('reports reverts: Error(string), Panic(uint256) and custom errors', async () => {
    const reason = await revertOf(c().readContract({ address: REVERTER, abi: reverterAbi, functionName: 'revertWithReason' }));
    expect(reason.reason).toBe('Reverter: always reverts');
    const message = await revertOf(c().readContract({ address: REVERTER, abi: reverterAbi, functionName: 'revertWithMessage', args: ['nope'] }));
    expect(message.reason).toBe('nope');
    const panic = await revertOf(c().readContract({ address: REVERTER, abi: reverterAbi, functionName: 'panicDivisionByZero', args: [0n] }));
    expect(panic.data?.errorName).toBe('Panic');
    expect(panic.data?.args).toEqual([0x12n]);
    const custom = await revertOf(
      c().readContract({ address: REVERTER, abi: reverterAbi, functionName: 'revertWithCustomError', args: [7n], account: ACCOUNT2 }),
    );
    expect(custom.data?.errorName).toBe('Unauthorized');
    expect(custom.data?.args).toEqual([getAddress(ACCOUNT2), 7n]);
  });

  it('reads storage: plain slots and mapping entries as SPEC 4.3 computes them', async () => {
    expect(BigInt((await c().getStorageAt({ address: STORAGE_LAYOUT, slot: '0x0' }))!)).toBe(42n);
    expect(await c().getStorageAt({ address: STORAGE_LAYOUT, slot: '0x1' })).toBe(pad(ACCOUNT0));
    expect(await c().getStorageAt({ address: STORAGE_LAYOUT, slot: '0x2' })).toBe(toHex((2n << 128n) | 1n, { size: 32 }));
    expect(BigInt((await c().getStorageAt({ address: STORAGE_LAYOUT, slot: mappingPosition(ACCOUNT0, 3n) }))!)).toBe(1000n);
    expect(BigInt((await c().getStorageAt({ address: STORAGE_LAYOUT, slot: mappingPosition(ACCOUNT1, 3n) }))!)).toBe(777n);
    expect(BigInt((await c().getStorageAt({ address: STORAGE_LAYOUT, slot: mappingPosition(ACCOUNT1, 3n), blockNumber: 1n }))!)).toBe(0n);
  });

  it('gives EIP-1186 proofs that verify against the block stateRoot, present and absent', async () => {
    const block = await c().getBlock({ blockNumber: 2n });
    const root = hexToBytes(block.stateRoot);
    const nodes = (proof: readonly `0x${string}`[]) => proof.map((p) => hexToBytes(p));
    const present = pad('0x0');
    const absent = pad('0x99');
    const proof = await c().getProof({ address: STORAGE_LAYOUT, storageKeys: [present, absent], blockNumber: 2n });
    expect(await verifyMerkleProof(hexToBytes(STORAGE_LAYOUT), nodes(proof.accountProof), { useKeyHashing: true, root })).not.toBeNull();
    expect(proof.nonce).toBe(1);
    const storageRoot = hexToBytes(proof.storageHash);
    const slot0 = await verifyMerkleProof(hexToBytes(present), nodes(proof.storageProof[0]!.proof), { useKeyHashing: true, root: storageRoot });
    expect(slot0).not.toBeNull();
    expect(proof.storageProof[0]!.value).toBe(42n);
    const slot99 = await verifyMerkleProof(hexToBytes(absent), nodes(proof.storageProof[1]!.proof), { useKeyHashing: true, root: storageRoot });
    expect(slot99).toBeNull();
    expect(proof.storageProof[1]!.value).toBe(0n);

    const nobody = '0x000000000000000000000000000000000000dead';
    const none = await c().getProof({ address: nobody, storageKeys: [present], blockNumber: 2n });
    expect(await verifyMerkleProof(hexToBytes(nobody), nodes(none.accountProof), { useKeyHashing: true, root })).toBeNull();
    expect(none.balance).toBe(0n);
    expect(none.storageProof[0]!.proof).toEqual([]);
  });

  it('filters logs by address, event and topics, by range and by block hash', async () => {
    const transfers = await c().getLogs({ address: TOKEN, event: transferEvent, fromBlock: 0n });
    expect(transfers.map((l) => [l.blockNumber, l.args.to!.toLowerCase(), l.args.value])).toEqual([
      [1n, ACCOUNT0, 1_000_000n * 10n ** 18n],
      [2n, ACCOUNT1, 1000n],
      [3n, ACCOUNT2, 10n],
    ]);
    expect(await c().getLogs({ address: TOKEN, event: transferEvent, args: { to: ACCOUNT2 }, fromBlock: 0n })).toHaveLength(1);
    const block3 = await c().getBlock({ blockNumber: 3n });
    const all3 = await c().getLogs({ blockHash: block3.hash });
    expect(all3.map((l) => l.logIndex)).toEqual(Array.from({ length: 14 }, (_, i) => i));
    expect(await c().getLogs({ address: EMITTER, fromBlock: 3n, toBlock: 3n })).toHaveLength(12);
    expect(await c().getLogs({ address: EMITTER, fromBlock: 0n, toBlock: 2n })).toEqual([]);
  });

  it('estimates gas and access lists, and fee data', async () => {
    expect(await c().estimateGas({ account: ACCOUNT0, to: ACCOUNT1, value: 1n })).toBe(21_000n);
    const gas = await c().estimateContractGas({ address: REVERTER, abi: reverterAbi, functionName: 'increment', account: ACCOUNT0 });
    expect(gas).toBeGreaterThan(21_000n);
    expect(gas).toBeLessThan(100_000n);
    const err = await c()
      .estimateContractGas({ address: REVERTER, abi: reverterAbi, functionName: 'revertWithReason', account: ACCOUNT0 })
      .then(
        () => undefined,
        (e: BaseError) => e,
      );
    expect(err?.walk((e) => e instanceof ContractFunctionRevertedError)).toBeInstanceOf(ContractFunctionRevertedError);
    const list = await c().createAccessList({ account: ACCOUNT0, to: REVERTER, data: '0xd09de08a' /* increment() */, blockNumber: 4n });
    expect(list.accessList).toEqual([{ address: REVERTER, storageKeys: [pad('0x0')] }]);
    expect(list.gasUsed).toBeGreaterThan(21_000n);
    const latest = await c().getBlock();
    expect(await c().getGasPrice()).toBeGreaterThan(latest.baseFeePerGas!);
    expect(await c().estimateMaxPriorityFeePerGas()).toBe(10n ** 9n);
    const history = await c().getFeeHistory({ blockCount: 3, rewardPercentiles: [25, 75] });
    expect(history.oldestBlock).toBe(2n);
    expect(history.baseFeePerGas).toHaveLength(4);
    expect(history.reward).toHaveLength(3);
    expect(history.baseFeePerGas[3]).toBe((await c().getBlock({ blockTag: 'pending' })).baseFeePerGas);
    expect(await c().getBlobBaseFee()).toBe(1n);
  });
});
