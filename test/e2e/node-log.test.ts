/**
 * The node log, as anvil 1.7.1 prints it after its banner (docs/dropin.md "The node log"): each transaction's hash,
 * the contract it created, its gas, its revert reason, the text of its console.log calls (hardhat's console.sol,
 * decoded with its signatures), then the block's number, hash and time. Driven with viem, deploying a contract
 * compiled against hardhat's own console.sol (test/fixtures/dropin). `anvil_setLoggingEnabled` turns it off and on;
 * start() logs nothing unless asked. Before: nothing was printed after the banner, and anvil_setLoggingEnabled was
 * -32601.
 */
import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

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
    expect(out).toEqual([
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
    expect(out.slice(0, 5)).toEqual(['', `    Transaction: ${hash}`, '    Gas used: 21353', '    Error: reverted with: nope', '']);
  });

  it('prints an empty block as its number, hash and time', async () => {
    const out = await printed(() => call(gw.bareUrl(), 'evm_mine'));
    expect(out).toHaveLength(5);
    expect(out[1]).toMatch(/^ {4}Block Number: \d+$/);
  });

  it('anvil_setLoggingEnabled(false) stops it, (true) starts it again; a bad value is -32602', async () => {
    const url = gw.bareUrl();
    expect((await call(url, 'anvil_setLoggingEnabled', [false])).result).toBeNull();
    expect(await printed(() => call(url, 'evm_mine'))).toEqual([]);
    expect((await call(url, 'hardhat_setLoggingEnabled', [true])).result).toBeNull();
    expect(await printed(() => call(url, 'evm_mine'))).toHaveLength(5);
    const bad = await call(url, 'anvil_setLoggingEnabled', ['yes']);
    expect(bad.error.code).toBe(-32602);
  });

  it('labels the blocks of a network other than the bare one', async () => {
    const out = await printed(() => call(gw.url('alpha'), 'evm_mine'));
    expect(out[1]).toBe('    Network: alpha');
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
