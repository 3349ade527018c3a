/**
 * The shipped mainnet chain through viem, over HTTP and WebSocket: eth_getStorageAt positions computed
 * exactly as SPEC 4.3 says (plain slots, mapping and nested mapping entries) against the shipped Token
 * and StorageLayout, checked against the contracts' own getters; proofs at a historical block verified
 * against its stateRoot; Transfer logs matching the receipts; the pending block.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { concat, createPublicClient, hexToBytes, pad, http, keccak256, parseAbiItem, toHex, webSocket, type Abi, type Hex, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { UNLIMITED } from '../seed.js';

const MAINNET = fileURLToPath(new URL('../../../../chains/mainnet.json', import.meta.url));
const abi = (name: string) => JSON.parse(readFileSync(new URL(`../../../../chains/contracts/${name}.json`, import.meta.url), 'utf8')).abi as Abi;
// The seed's first block deploys Token, StorageLayout, Reverter, Emitter from dev account 0 (nonces 0-3).
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const LAYOUT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const REVERTER = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const HOLDERS = [
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
] as const;
const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** SPEC 4.3: keccak256(pad32(key) ++ pad32(slot)). */
const mappingPosition = (key: Hex | bigint, slot: Hex | bigint): Hex => keccak256(concat([word(key), word(slot)]));
const word = (v: Hex | bigint): Hex => (typeof v === 'bigint' ? toHex(v, { size: 32 }) : pad(v, { size: 32 }));

let gw: Gateway;
const clients: Record<string, PublicClient> = {};

beforeAll(async () => {
  gw = await start({ port: 0, chains: [MAINNET], keys: UNLIMITED });
  clients.http = createPublicClient({ transport: http(gw.url('mainnet')) }) as PublicClient;
  clients.ws = createPublicClient({ transport: webSocket(gw.wsUrl('mainnet')) }) as PublicClient;
});

afterAll(async () => {
  const ws = clients.ws?.transport as { getRpcClient?: () => Promise<{ close(): void }> } | undefined;
  await ws?.getRpcClient?.().then((c) => c.close());
  await gw?.stop();
});

describe.each(['http', 'ws'])('shipped mainnet over %s', (transport) => {
  const c = () => clients[transport]!;
  const read = (address: Hex, name: string, functionName: string, args: unknown[] = []) =>
    c().readContract({ address, abi: abi(name), functionName, args }) as Promise<bigint | Hex>;
  const storage = async (address: Hex, slot: Hex) => BigInt((await c().getStorageAt({ address, slot }))!);

  it('StorageLayout: plain slots, mapping and nested mapping positions equal the getters', async () => {
    expect(await storage(LAYOUT, '0x0')).toBe(await read(LAYOUT, 'StorageLayout', 'a'));
    expect(await storage(LAYOUT, '0x1')).toBe(BigInt(await read(LAYOUT, 'StorageLayout', 'owner')));
    const xy = await storage(LAYOUT, '0x2');
    expect(xy & ((1n << 128n) - 1n)).toBe(await read(LAYOUT, 'StorageLayout', 'x'));
    expect(xy >> 128n).toBe(await read(LAYOUT, 'StorageLayout', 'y'));
    for (const holder of HOLDERS) {
      expect(await storage(LAYOUT, mappingPosition(holder, 3n))).toBe(await read(LAYOUT, 'StorageLayout', 'balances', [holder]));
    }
    expect(await storage(LAYOUT, mappingPosition(6n, mappingPosition(5n, 4n)))).toBe(await read(LAYOUT, 'StorageLayout', 'grid', [5n, 6n]));
    expect(await storage(LAYOUT, '0x5')).toBe(await read(LAYOUT, 'StorageLayout', 'itemsLength'));
    const itemsBase = BigInt(keccak256(toHex(5n, { size: 32 })));
    expect(await storage(LAYOUT, toHex(itemsBase, { size: 32 }))).toBe(await read(LAYOUT, 'StorageLayout', 'items', [0n]));
  });

  it('Token: the balances mapping (slot 0) and totalSupply (slot 2) equal balanceOf and totalSupply', async () => {
    let sum = 0n;
    for (const holder of HOLDERS) {
      const balance = await read(TOKEN, 'Token', 'balanceOf', [holder]);
      expect(await storage(TOKEN, mappingPosition(holder, 0n))).toBe(balance);
      sum += balance as bigint;
    }
    expect(sum).toBeGreaterThan(0n);
    expect(await storage(TOKEN, '0x2')).toBe(await read(TOKEN, 'Token', 'totalSupply'));
  });

  it('proofs of the token balances at a historical block verify against its stateRoot', async () => {
    const blockNumber = 150n;
    const block = await c().getBlock({ blockNumber });
    const keys = HOLDERS.map((h) => mappingPosition(h, 0n));
    const proof = await c().getProof({ address: TOKEN, storageKeys: keys, blockNumber });
    const nodes = (p: readonly Hex[]) => p.map((n) => hexToBytes(n));
    expect(await verifyMerkleProof(hexToBytes(TOKEN), nodes(proof.accountProof), { useKeyHashing: true, root: hexToBytes(block.stateRoot) })).not.toBeNull();
    for (const [i, key] of keys.entries()) {
      const leaf = await verifyMerkleProof(hexToBytes(key), nodes(proof.storageProof[i]!.proof), { useKeyHashing: true, root: hexToBytes(proof.storageHash) });
      expect(leaf === null).toBe(proof.storageProof[i]!.value === 0n);
      expect(proof.storageProof[i]!.value).toBe(
        await c().readContract({ address: TOKEN, abi: abi('Token'), functionName: 'balanceOf', args: [HOLDERS[i]], blockNumber }),
      );
    }
  });

  it('Transfer logs match the receipts they come from', async () => {
    const logs = await c().getLogs({ address: TOKEN, event: transfer, fromBlock: 0n, toBlock: 60n });
    expect(logs.length).toBeGreaterThan(2);
    for (const log of logs.slice(0, 5)) {
      const receipt = await c().getTransactionReceipt({ hash: log.transactionHash });
      expect(receipt.logs.some((l) => l.logIndex === log.logIndex && l.data === log.data)).toBe(true);
      expect(receipt.blockNumber).toBe(log.blockNumber);
    }
  });

  it('reverts, the pending block and its transactions', async () => {
    const err = await c()
      .readContract({ address: REVERTER, abi: abi('Reverter'), functionName: 'revertWithReason' })
      .then(
        () => undefined,
        (e: Error) => e.message,
      );
    expect(err).toContain('Reverter: always reverts');
    const pending = await c().getBlock({ blockTag: 'pending', includeTransactions: true });
    expect(pending.number).toBeNull();
    expect(pending.transactions.length).toBeGreaterThan(0);
    expect(pending.transactions.every((t) => t.blockNumber === null && t.transactionIndex === null)).toBe(true);
  });
});
