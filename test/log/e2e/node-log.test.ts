/**
 * The node log, as anvil 1.7.1 prints it after its banner (docs/dropin.md "The node log"): each transaction's hash,
 * the contract it created, its gas, its revert reason, the text of its console.log calls (hardhat's console.sol,
 * decoded with its signatures), then the block's number, hash and time. Driven with viem, deploying a contract
 * compiled against hardhat's own console.sol (test/fixtures/dropin). `anvil_setLoggingEnabled` turns it off and on;
 * start() logs nothing unless asked. Before: nothing was printed after the banner, and anvil_setLoggingEnabled was
 * -32601. As anvil 1.7.1 does, it also prints each request's method and the console.log calls of eth_call and of
 * every run of eth_estimateGas (before: neither was printed).
 */
import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { call } from '../../support/http.js';

const ARTIFACT = JSON.parse(readFileSync('test/fixtures/dropin/artifacts/contracts/ConsoleLogger.sol/ConsoleLogger.json', 'utf8')) as {
  abi: Abi;
  bytecode: Hex;
};
const ALPHA = { name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } };
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

let gw: Gateway;
const lines: string[] = [];
beforeAll(async () => {
  gw = await start({ port: 0, chains: [ALPHA], bare: 'dev', log: (line) => lines.push(line) });
});
afterAll(() => gw?.stop());

const clients = () => {
  const transport = http(gw.bareUrl());
  return {
    wallet: createWalletClient({ account, chain: foundry, transport }),
    client: createPublicClient({ chain: foundry, transport }),
  };
};

/** The lines printed while `fn` runs. */
async function printed(fn: () => Promise<unknown>): Promise<string[]> {
  const from = lines.length;
  await fn();
  return lines.slice(from);
}

describe('the node log', () => {
  let address: Hex;

  it('prints a deployment: console.log text, hash, contract, gas (as anvil charges it), block', async () => {
    const { wallet, client } = clients();
    let hash: Hex = '0x';
    const out = await printed(async () => {
      hash = await wallet.deployContract({ abi: ARTIFACT.abi, bytecode: ARTIFACT.bytecode });
    });
    const receipt = await client.getTransactionReceipt({ hash });
    address = receipt.contractAddress!;
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    // viem fills the transaction first: its gas estimate's every run prints the constructor's console.log, as anvil's
    // runs do; then it sends.
    const fill = out.indexOf('eth_fillTransaction');
    const send = out.indexOf('eth_sendRawTransaction');
    expect(fill).toBeGreaterThanOrEqual(0);
    expect(send - fill - 1).toBeGreaterThanOrEqual(2);
    expect(out.slice(fill + 1, send)).toEqual(Array(send - fill - 1).fill('deployed by 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'));
    expect(out.slice(send + 1)).toEqual([
      'deployed by 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '',
      `    Transaction: ${hash}`,
      '    Contract created: 0x5FbDB2315678afecb367f032d93F642f64180aa3',
      // anvil 1.7.1 charges 234,109 for this deployment: the console call costs what a call to an empty account does.
      '    Gas used: 234109',
      '',
      '    Block Number: 1',
      `    Block Hash: ${block.hash}`,
      `    Block Time: "${new Date(Number(block.timestamp) * 1000).toUTCString().replace('GMT', '+0000').replace(/, 0/, ', ')}"`,
      '',
    ]);
    expect(receipt.gasUsed).toBe(234109n);
  });

  it("decodes console.log's overloads (string and uint, bool and address, bytes32) in call order", async () => {
    const { wallet, client } = clients();
    let hash: Hex = '0x';
    const out = await printed(async () => {
      hash = await wallet.writeContract({ address, abi: ARTIFACT.abi, functionName: 'set', args: [42n] });
    });
    out.splice(0, out.indexOf('eth_sendRawTransaction') + 1);
    expect(out.slice(0, 4)).toEqual([
      'set 42',
      `ok true ${'0x5FbDB2315678afecb367f032d93F642f64180aa3'}`,
      '0x000000000000000000000000000000000000000000000000000000000000002a',
      '',
    ]);
    expect(out[4]).toBe(`    Transaction: ${hash}`);
    // anvil 1.7.1: 47,907 for the same call, three console.log calls included.
    expect(out[5]).toBe('    Gas used: 47907');
    expect((await client.getTransactionReceipt({ hash })).gasUsed).toBe(47907n);
  });

  it('prints a revert with its reason', async () => {
    const { wallet } = clients();
    let hash: Hex = '0x';
    const out = await printed(async () => {
      hash = await wallet.writeContract({ address, abi: ARTIFACT.abi, functionName: 'fail', gas: 100_000n });
    });
    out.splice(0, out.indexOf('eth_sendRawTransaction') + 1);
    expect(out.slice(0, 5)).toEqual(['', `    Transaction: ${hash}`, '    Gas used: 21353', '    Error: reverted with: nope', '']);
  });

  it('prints an empty block as its number, hash and time', async () => {
    const out = await printed(() => call(gw.bareUrl(), 'evm_mine'));
    expect(out).toHaveLength(6);
    expect(out[0]).toBe('evm_mine');
    expect(out[2]).toMatch(/^ {4}Block Number: \d+$/);
  });

  it('anvil_setLoggingEnabled(false) stops it, (true) starts it again; a bad value is -32602', async () => {
    const url = gw.bareUrl();
    expect((await call(url, 'anvil_setLoggingEnabled', [false])).result).toBeNull();
    expect(await printed(() => call(url, 'evm_mine'))).toEqual([]);
    expect((await call(url, 'hardhat_setLoggingEnabled', [true])).result).toBeNull();
    expect(await printed(() => call(url, 'evm_mine'))).toHaveLength(6);
    const bad = await call(url, 'anvil_setLoggingEnabled', ['yes']);
    expect(bad.error.code).toBe(-32602);
  });

  it('labels the blocks of a network other than the bare one', async () => {
    const out = await printed(() => call(gw.url('alpha'), 'evm_mine'));
    expect(out[0]).toBe('evm_mine (alpha)');
    expect(out[2]).toBe('    Network: alpha');
  });

  const SET_42 = () => encodeFunctionData({ abi: ARTIFACT.abi, functionName: 'set', args: [42n] });
  const SET_LINES = ['set 42', `ok true ${'0x5FbDB2315678afecb367f032d93F642f64180aa3'}`, `0x${'2a'.padStart(64, '0')}`];

  it('prints the method of each request and the console.log calls of an eth_call, as anvil does', async () => {
    const { client } = clients();
    const out = await printed(() => client.call({ account: account.address, to: address, data: SET_42() }));
    expect(out).toEqual(['eth_call', ...SET_LINES]);
  });

  it('prints the console.log calls of every run of an eth_estimateGas; the estimate is the same with the log off', async () => {
    const { client } = clients();
    let gas = 0n;
    const out = await printed(async () => {
      gas = await client.estimateGas({ account: account.address, to: address, data: SET_42() });
    });
    expect(out[0]).toBe('eth_estimateGas');
    const runs = (out.length - 1) / SET_LINES.length;
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(out.slice(1)).toEqual(Array.from({ length: runs }, () => SET_LINES).flat());
    const url = gw.bareUrl();
    await call(url, 'anvil_setLoggingEnabled', [false]);
    try {
      const quiet = await printed(async () => {
        expect(await client.estimateGas({ account: account.address, to: address, data: SET_42() })).toBe(gas);
        await client.call({ account: account.address, to: address, data: SET_42() });
      });
      expect(quiet).toEqual([]);
    } finally {
      await call(url, 'anvil_setLoggingEnabled', [true]);
    }
  });

  it('prints at most 1 MiB of console.log calldata of a run, then how many calls it left out', async () => {
    // A contract (a state override) that calls the console address with 4 KiB of zeros until its gas runs out.
    const LOOPER = `0x5b600060006110006000600073${'000000000000000000636f6e736f6c652e6c6f67'}5af150600056`;
    const to = '0x00000000000000000000000000000000000c0de5';
    const out = await printed(() => call(gw.bareUrl(), 'eth_call', [{ to, gas: '0x186a0' }, 'latest', { [to]: { code: LOOPER } }]));
    expect(out[0]).toBe('eth_call');
    // 256 calls of 4,096 bytes fit in 1 MiB; each prints as unknown calldata (selector 0x00000000).
    expect(out.slice(1, -1)).toEqual(Array(256).fill(`console.log with unknown calldata 0x${'0'.repeat(8192)}`));
    expect(out.at(-1)).toMatch(/^console\.log: \d+ more calls not printed \(past 1048576 bytes of console\.log calldata in one run\)$/);
  });

  it('prints each call of a batch, not an unknown method', async () => {
    const out = await printed(async () => {
      const res = await fetch(gw.bareUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 2, method: 'nosuch_method' },
          { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber' },
        ]),
      });
      expect(((await res.json()) as unknown[]).length).toBe(3);
    });
    expect(out).toEqual(['eth_chainId', 'eth_blockNumber']);
  });

  it('start() prints nothing by default', async () => {
    const quiet = await start({ port: 0, chains: [ALPHA], bare: 'none' });
    const write = vi.spyOn(process.stdout, 'write');
    try {
      await call(quiet.url('alpha'), 'evm_mine');
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
      await quiet.stop();
    }
  });
});
