/**
 * eth_call on reused call VMs and their per-object caches (address keys, the NoBaseFee context per header, the pool's
 * LRU) answers from the state of the moment, with viem's clients unchanged: right after a state edit (setCode,
 * setStorageAt, setBalance), a new block, a revert and a reset, at latest and at an older block.
 */
import { createPublicClient, createTestClient, http, type Hex } from 'viem';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';

const WHO = '0x00000000000000000000000000000000000000c7' as const;
const PAYER = '0x00000000000000000000000000000000000000c8' as const;
/** Runtime code answering its storage slot 0 as one word: PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const READ_SLOT0 = '0x60005460005260206000f3' as const;
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

it('answers from the state of the moment after edits, a new block, a revert and a reset', async () => {
  const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
  const test = createTestClient({ chain, mode: 'anvil', transport: http(url) });
  const slot0 = async (blockNumber?: bigint) => (await client.call({ to: WHO, blockNumber })).data;

  expect(await slot0()).toBeUndefined();
  const start0 = await client.getBlockNumber();
  const id = await test.snapshot();
  await test.setCode({ address: WHO, bytecode: READ_SLOT0 });
  expect(await slot0()).toBe(word(0));
  await test.setStorageAt({ address: WHO, index: 0, value: word(5) });
  expect(await slot0()).toBe(word(5));

  await test.mine({ blocks: 2 });
  const mined = start0 + 1n;
  expect(await client.getBlockNumber()).toBe(start0 + 2n);
  // An edit goes into the head's state: latest (the head) sees it at once.
  await test.setStorageAt({ address: WHO, index: 0, value: word(7) });
  expect(await slot0()).toBe(word(7));
  // The block mined after the first edits keeps its own state; the block before the edits has no code.
  expect(await slot0(mined)).toBe(word(5));
  expect(await slot0(start0)).toBeUndefined();

  // A call with value needs the caller's funds: refused, then answered after setBalance.
  const pay = () => client.call({ account: PAYER, to: WHO, value: 1000n });
  await expect(pay()).rejects.toThrow(/insufficient funds/);
  await test.setBalance({ address: PAYER, value: 10n ** 18n });
  expect((await pay()).data).toBe(word(7));

  expect(await test.revert({ id })).toBeUndefined();
  expect(await client.getBlockNumber()).toBe(start0);
  expect(await slot0()).toBeUndefined();
  await expect(pay()).rejects.toThrow(/insufficient funds/);

  await test.setCode({ address: WHO, bytecode: READ_SLOT0 });
  await test.setStorageAt({ address: WHO, index: 0, value: word(9) });
  await test.mine({ blocks: 2 });
  expect(await slot0()).toBe(word(9));
  await test.reset();
  expect(await slot0()).toBeUndefined();
});
