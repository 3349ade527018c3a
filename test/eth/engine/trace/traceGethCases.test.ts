/**
 * Two public-chain transactions whose callTracer answers geth publishes with its tracer tests (go-ethereum
 * eth/tracers/internal/tracetest, call_tracer `selfdestruct` and `inner_instafail`): the pre-state of the accounts they
 * touch, the raw transaction and the block context, traced here from scratch and held to geth's answer field for field:
 * a SELFDESTRUCT frame, and a CALL of more value than its caller holds (`insufficient balance for transfer`, the
 * 2,300 stipend as its gas, gas used 0).
 */
import { createBlockHeader } from '@ethereumjs/block';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { Account, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { traceTxOn } from '../../../../src/eth/engine/trace/run.js';
import { formatTrace } from '../../../../src/eth/format/trace.js';

interface Case {
  hardfork: string;
  chainId: number;
  context: { number: bigint; timestamp: bigint; gasLimit: bigint; difficulty: bigint; miner: string };
  alloc: Record<string, { balance: string; nonce: bigint; code?: string; storage?: Record<string, string> }>;
  input: string;
  result: unknown;
}

async function traceCase(c: Case): Promise<unknown> {
  const common = createCustomCommon({ chainId: c.chainId }, Mainnet, { hardfork: c.hardfork });
  const vm = await createVM({ common });
  for (const [address, a] of Object.entries(c.alloc)) {
    const at = createAddressFromString(address);
    await vm.stateManager.putAccount(at, new Account(a.nonce, BigInt(a.balance)));
    if (a.code !== undefined && a.code !== '0x') await vm.stateManager.putCode(at, hexToBytes(a.code as PrefixedHexString));
    for (const [slot, value] of Object.entries(a.storage ?? {}))
      await vm.stateManager.putStorage(at, hexToBytes(slot as PrefixedHexString), hexToBytes(value as PrefixedHexString));
  }
  const tx = createTxFromRLP(hexToBytes(c.input as PrefixedHexString), { common });
  const header = createBlockHeader(
    {
      number: c.context.number,
      timestamp: c.context.timestamp,
      gasLimit: c.context.gasLimit,
      difficulty: c.context.difficulty,
      coinbase: c.context.miner as PrefixedHexString,
    },
    { common },
  );
  const block = { number: header.number, header, block: { header, transactions: [tx] }, senders: [tx.getSenderAddress()], txHashes: [tx.hash()], receipts: [] };
  const req = { spec: { kind: 'callTracer' as const, opts: { onlyTopCall: false, withLog: false } }, timeoutMs: 10_000 };
  return formatTrace(await traceTxOn(vm, block as unknown as MinedBlock, 0, req));
}

const SELFDESTRUCT: Case = {
  hardfork: 'byzantium',
  chainId: 3,
  context: { number: 2289806n, timestamp: 1513601314n, gasLimit: 4722976n, difficulty: 3502894804n, miner: '0x1585936b53834b021f68cc13eeefdec2efc8e724' },
  alloc: {
    '0x0024f658a46fbb89d8ac105e98d7ac7cbbaf27c5': { balance: '0x0', nonce: 22n },
    '0x3b873a919aa0512d5a0f09e6dcceaa4a6727fafe': { balance: '0x4d87094125a369d9bd5', nonce: 1n, code: '0x61deadff' },
    '0xb436ba50d378d4bbc8660d312a13df6af6e89dfb': { balance: '0x1780d77678137ac1b775', nonce: 29072n },
  },
  input:
    '0xf88b8271908506fc23ac0083015f90943b873a919aa0512d5a0f09e6dcceaa4a6727fafe80a463e4bff40000000000000000000000000024f658a46fbb89d8ac105e98d7ac7cbbaf27c52aa0bdce0b59e8761854e857fe64015f06dd08a4fbb7624f6094893a79a72e6ad6bea01d9dde033cff7bb235a3163f348a6d7ab8d6b52bc0963a95b91612e40ca766a4',
  result: {
    calls: [
      {
        from: '0x3b873a919aa0512d5a0f09e6dcceaa4a6727fafe',
        gas: '0x0',
        gasUsed: '0x0',
        input: '0x',
        to: '0x000000000000000000000000000000000000dead',
        type: 'SELFDESTRUCT',
        value: '0x4d87094125a369d9bd5',
      },
    ],
    from: '0xb436ba50d378d4bbc8660d312a13df6af6e89dfb',
    gas: '0x15f90',
    gasUsed: '0x6fcb',
    input: '0x63e4bff40000000000000000000000000024f658a46fbb89d8ac105e98d7ac7cbbaf27c5',
    to: '0x3b873a919aa0512d5a0f09e6dcceaa4a6727fafe',
    type: 'CALL',
    value: '0x0',
  },
};

const INNER_INSTAFAIL: Case = {
  hardfork: 'spuriousDragon',
  chainId: 3,
  context: { number: 24974n, timestamp: 1479891162n, gasLimit: 4712388n, difficulty: 117067574n, miner: '0xc822ef32e6d26e170b70cf761e204c1806265914' },
  alloc: {
    '0x6c06b16512b332e6cd8293a2974872674716ce18': {
      balance: '0x0',
      nonce: 1n,
      code: '0x60606040526000357c0100000000000000000000000000000000000000000000000000000000900480632e1a7d4d146036575b6000565b34600057604e60048080359060200190919050506050565b005b3373ffffffffffffffffffffffffffffffffffffffff166108fc829081150290604051809050600060405180830381858888f19350505050505b5056',
    },
    '0x66fdfd05e46126a07465ad24e40cc0597bc1ef31': { balance: '0x229ebbb36c3e0f20', nonce: 3n },
  },
  input:
    '0xf889038504a81557008301f97e946c06b16512b332e6cd8293a2974872674716ce1880a42e1a7d4d00000000000000000000000000000000000000000000000014d1120d7b1600002aa0e2a6558040c5d72bc59f2fb62a38993a314c849cd22fb393018d2c5af3112095a01bdb6d7ba32263ccc2ecc880d38c49d9f0c5a72d8b7908e3122b31356d349745',
  result: {
    type: 'CALL',
    from: '0x66fdfd05e46126a07465ad24e40cc0597bc1ef31',
    to: '0x6c06b16512b332e6cd8293a2974872674716ce18',
    value: '0x0',
    gas: '0x1f97e',
    gasUsed: '0x72de',
    input: '0x2e1a7d4d00000000000000000000000000000000000000000000000014d1120d7b160000',
    calls: [
      {
        from: '0x6c06b16512b332e6cd8293a2974872674716ce18',
        gas: '0x8fc',
        gasUsed: '0x0',
        to: '0x66fdfd05e46126a07465ad24e40cc0597bc1ef31',
        input: '0x',
        error: 'insufficient balance for transfer',
        value: '0x14d1120d7b160000',
        type: 'CALL',
      },
    ],
  },
};

describe("geth's callTracer answers for public transactions", () => {
  it('selfdestruct (Ropsten, Byzantium): the SELFDESTRUCT frame', async () => {
    expect(await traceCase(SELFDESTRUCT)).toEqual(SELFDESTRUCT.result);
  });

  it('inner_instafail (Ropsten, Spurious Dragon): a CALL short of value, with its stipend as gas', async () => {
    expect(await traceCase(INNER_INSTAFAIL)).toEqual(INNER_INSTAFAIL.result);
  });
});
