/**
 * The test-suite bench's scenario (issue 26): what a viem test suite does to its node, one request in flight, polling
 * every 100 ms. It deploys the ERC-20 of chains/contracts/Token.json, runs the one-off tests (mining 100 blocks, time
 * travel, impersonation, setBalance/setStorageAt, an event watch), then `tests` tests of: snapshot → 2-3 transfers,
 * each with its receipt → reads → the Transfer logs → estimateGas → a reverting call → revert. Every answer is checked
 * against what the suite expects; a wrong one throws (`SuiteError`), so a server that answers faster but wrongly fails
 * the bench instead of winning it. The same code drives anvil, devgate's CLI and devgate's in-process provider.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Address,
  type Chain,
  type Hex,
  keccak256,
  type Transport,
  toHex,
  parseAbi,
  parseEther,
  pad,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { MNEMONIC, REPO_ROOT } from './seed.js';

/** The ERC-20 the suite deploys: 1,000,000 tokens to the deployer, InsufficientBalance on an overdraft. */
const TOKEN = JSON.parse(readFileSync(join(REPO_ROOT, 'chains', 'contracts', 'Token.json'), 'utf8')) as { bytecode: Hex };
/** The part of Token's ABI the suite uses. */
const abi = parseAbi([
  'constructor()',
  'function balanceOf(address holder) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'error InsufficientBalance(uint256 available, uint256 required)',
]);
const INITIAL_SUPPLY = 10n ** 24n;
/** The chain both servers serve at their bare address: chain id 31337, the `test ... junk` accounts. */
const CHAIN: Chain = foundry;

/** A wrong answer: the bench fails rather than reporting a time. */
export class SuiteError extends Error {
  override name = 'SuiteError';
}

function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) throw new SuiteError(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new SuiteError(what);
}

/** Where the suite talks to a server. */
export interface SuiteTarget {
  /** The transport of every request but the event watch (viem's `http(url)` or `custom(provider)`). */
  transport: Transport;
  /**
   * The event watch's transport (viem's `webSocket(url)`, which subscribes), or undefined to watch through `transport`
   * (viem then polls a filter every 100 ms); `watchReady` resolves once that filter exists.
   */
  wsTransport?: Transport;
  watchReady?: () => Promise<void>;
}

export interface SuiteOptions {
  /** How many snapshot → transfers → ... → revert tests (150 in the bench). */
  tests: number;
  /** Milliseconds an expected event may take to arrive (default 10 s). */
  watchTimeoutMs?: number;
}

export interface SuiteOutcome {
  tests: number;
  /** Milliseconds from the deploy to the last revert. */
  ms: number;
}

const POLLING_MS = 100;
const dev = (addressIndex: number) => mnemonicToAccount(MNEMONIC, { addressIndex });
/** A fresh address per (test, transfer), never a dev account. */
const recipient = (test: number, k: number): Address => toHex(0xbe0000n + BigInt(test) * 4n + BigInt(k), { size: 20 });
/** The storage slot of `balances[holder]` (Token's mapping at slot 0). */
const balanceSlot = (holder: Address): Hex => keccak256(`0x${holder.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}`);

/** Runs the suite against one server; throws a SuiteError on the first wrong answer. */
export async function runSuite(target: SuiteTarget, opts: SuiteOptions): Promise<SuiteOutcome> {
  const { transport } = target;
  const owner = dev(0);
  const poor = dev(9).address;
  const pub = createPublicClient({ chain: CHAIN, transport, pollingInterval: POLLING_MS, cacheTime: 0 });
  const wallet = createWalletClient({ account: owner, chain: CHAIN, transport, pollingInterval: POLLING_MS, cacheTime: 0 });
  const test = createTestClient({ mode: 'anvil', chain: CHAIN, transport, pollingInterval: POLLING_MS, cacheTime: 0 });
  const balanceOf = (holder: Address) => pub.readContract({ address: token, abi, functionName: 'balanceOf', args: [holder] });
  const started = performance.now();

  // Deploy the token.
  const deployHash = await wallet.deployContract({ abi, bytecode: TOKEN.bytecode });
  const deployed = await pub.waitForTransactionReceipt({ hash: deployHash });
  expectEqual(deployed.status, 'success', 'the deploy receipt status');
  const token = deployed.contractAddress!;
  expectThat(!!token, 'the deploy receipt has no contractAddress');
  expectEqual(await balanceOf(owner.address), INITIAL_SUPPLY, "the deployer's balance");
  let ownerTokens = INITIAL_SUPPLY;

  /** Sends a transfer (from the owner unless `send` says otherwise), checks its receipt and Transfer log. */
  const fromOwner = (to: Address, value: bigint) => wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [to, value] });
  const transfer = async (to: Address, value: bigint, send = fromOwner) => {
    const hash = await send(to, value);
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expectEqual(receipt.status, 'success', `the status of transfer ${hash}`);
    expectEqual(receipt.logs.length, 1, `the log count of transfer ${hash}`);
    const log = receipt.logs[0]!;
    expectEqual(log.address.toLowerCase(), token.toLowerCase(), 'the Transfer log address');
    expectEqual(BigInt(log.data), value, 'the Transfer log value');
    expectEqual(log.topics[2]?.toLowerCase(), pad(to).toLowerCase(), 'the Transfer log recipient');
    return receipt;
  };

  // One-off tests. Mining 100 blocks.
  const head = await pub.getBlockNumber();
  await test.mine({ blocks: 100 });
  expectEqual(await pub.getBlockNumber(), head + 100n, 'the block number after mining 100 blocks');

  // Time travel: increaseTime, then setNextBlockTimestamp.
  const before = await pub.getBlock();
  await test.increaseTime({ seconds: 3600 });
  await test.mine({ blocks: 1 });
  const later = await pub.getBlock();
  expectThat(later.timestamp >= before.timestamp + 3600n, `increaseTime(3600) moved the timestamp from ${before.timestamp} to ${later.timestamp}`);
  await test.setNextBlockTimestamp({ timestamp: later.timestamp + 7200n });
  await test.mine({ blocks: 1 });
  expectEqual((await pub.getBlock()).timestamp, later.timestamp + 7200n, 'the timestamp after setNextBlockTimestamp');

  // setBalance and setStorageAt.
  const edited = recipient(1_000_000, 0);
  await test.setBalance({ address: edited, value: parseEther('42') });
  expectEqual(await pub.getBalance({ address: edited }), parseEther('42'), 'the balance after setBalance');
  await test.setStorageAt({ address: token, index: balanceSlot(edited), value: pad(toHex(1234n)) });
  expectEqual(await balanceOf(edited), 1234n, 'balanceOf after setStorageAt');

  // Impersonation: an address with no key sends through eth_sendTransaction.
  const whale = recipient(1_000_001, 0);
  await transfer(whale, 1000n);
  ownerTokens -= 1000n;
  await test.setBalance({ address: whale, value: parseEther('10') });
  await test.impersonateAccount({ address: whale });
  const impersonated = createWalletClient({ account: whale, chain: CHAIN, transport, pollingInterval: POLLING_MS, cacheTime: 0 });
  const fromWhale = (to: Address, value: bigint) => impersonated.writeContract({ address: token, abi, functionName: 'transfer', args: [to, value] });
  await transfer(owner.address, 400n, fromWhale);
  ownerTokens += 400n;
  expectEqual(await balanceOf(whale), 600n, "the impersonated sender's balance");
  await test.stopImpersonatingAccount({ address: whale });
  const refused = await impersonated.writeContract({ address: token, abi, functionName: 'transfer', args: [owner.address, 1n], gas: 100_000n }).then(
    () => false,
    () => true,
  );
  expectThat(refused, 'a send from the address after stopImpersonatingAccount was accepted');

  // An event watch: a WebSocket subscription (or the transport's filter), then a transfer it must see.
  const watcher = createPublicClient({ chain: CHAIN, transport: target.wsTransport ?? transport, pollingInterval: POLLING_MS, cacheTime: 0 });
  const watched = recipient(1_000_002, 0);
  let unwatch = () => {};
  const seen = new Promise<{ from?: Address; to?: Address; value?: bigint }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SuiteError('the watched Transfer event did not arrive')), opts.watchTimeoutMs ?? 10_000);
    unwatch = watcher.watchContractEvent({
      address: token,
      abi,
      eventName: 'Transfer',
      args: { to: watched },
      onLogs: (logs) => (clearTimeout(timer), resolve(logs[0]!.args)),
      onError: (err) => (clearTimeout(timer), reject(err)),
    });
  });
  // A WebSocket answers in order: once this answers, the subscription above is in place.
  if (target.wsTransport) await watcher.getChainId();
  else await target.watchReady?.();
  await transfer(watched, 77n);
  ownerTokens -= 77n;
  const event = await seen.finally(() => unwatch());
  // Close the watch's socket (viem would otherwise keep it, and reconnect once the server stops).
  if (watcher.transport.type === 'webSocket') (await (watcher.transport as unknown as { getRpcClient(): Promise<{ close(): void }> }).getRpcClient()).close();
  expectEqual(event.from?.toLowerCase(), owner.address.toLowerCase(), 'the watched event sender');
  expectEqual(event.value, 77n, 'the watched event value');
  expectEqual(await balanceOf(owner.address), ownerTokens, "the owner's balance after the one-off tests");

  // The tests: snapshot → 2-3 transfers → reads → logs → estimateGas → a reverting call → revert.
  for (let i = 0; i < opts.tests; i++) {
    const snapshot = await test.snapshot();
    const start = await pub.getBlockNumber();
    const count = 2 + (i % 2);
    const sent: { to: Address; value: bigint }[] = [];
    for (let k = 0; k < count; k++) {
      const to = recipient(i, k);
      const value = BigInt(1 + i * 10 + k);
      const receipt = await transfer(to, value);
      expectEqual(receipt.blockNumber, start + BigInt(k + 1), 'the block of an automined transfer');
      sent.push({ to, value });
    }
    const spent = sent.reduce((sum, s) => sum + s.value, 0n);
    expectEqual(await balanceOf(owner.address), ownerTokens - spent, "the sender's balance after the transfers");
    for (const s of sent) expectEqual(await balanceOf(s.to), s.value, "a recipient's balance");
    expectEqual(await pub.getBlockNumber(), start + BigInt(count), 'the block number after the transfers');
    const logs = await pub.getContractEvents({ address: token, abi, eventName: 'Transfer', fromBlock: start + 1n, toBlock: 'latest' });
    expectEqual(logs.length, count, 'the Transfer logs since the snapshot');
    logs.forEach((log, k) => {
      expectEqual(log.args.to?.toLowerCase(), sent[k]!.to.toLowerCase(), 'a Transfer log recipient');
      expectEqual(log.args.value, sent[k]!.value, 'a Transfer log value');
    });
    const gas = await pub.estimateContractGas({ address: token, abi, functionName: 'transfer', args: [recipient(i, 3), 5n], account: owner });
    expectThat(gas > 30_000n && gas < 80_000n, `estimateGas of a transfer to a fresh holder: ${gas}`);
    const error = await pub.simulateContract({ address: token, abi, functionName: 'transfer', args: [owner.address, 5n], account: poor }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    expectThat(reverted instanceof ContractFunctionRevertedError, `the overdraft did not revert with a decodable error: ${String(error)}`);
    const data = (reverted as ContractFunctionRevertedError).data;
    expectEqual(data?.errorName, 'InsufficientBalance', 'the revert reason');
    expectEqual(String(data?.args), '0,5', "the revert's arguments");
    expectEqual(await test.revert({ id: snapshot }).then(() => true), true, 'evm_revert');
    expectEqual(await pub.getBlockNumber(), start, 'the block number after evm_revert');
    expectEqual(await balanceOf(sent[0]!.to), 0n, "a recipient's balance after evm_revert");
  }
  return { tests: opts.tests, ms: performance.now() - started };
}
