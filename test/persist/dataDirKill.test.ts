/**
 * kill -9 at random points: devgate (the CLI, a real process) serves a chain kept in a data directory while
 * clients send transactions from several accounts at once, edit state and mine; it is killed with SIGKILL at a
 * random moment, started again on the same directory, and every transaction whose send was answered must be
 * there, in the block with the hash and stateRoot observed before the kill; the chain must link up from
 * genesis, and proofs at those blocks must verify against their stateRoot. Several rounds on one directory; then an
 * answered evm_revert followed at once by a kill -9: the reverted block is gone after the restart.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { hexToBytes } from '@ethereumjs/util';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { prng } from '../support/prng.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];
const SEED = 'test/fixtures/eth/small.json';
const ROUNDS = 4;
const dir = mkdtempSync(join(tmpdir(), 'devgate-kill-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts devgate on the data directory; resolves with its network URL once it listens. */
async function launch(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...CLI, '--port', '0', '--no-cache', '--no-idle-gc', '--chain', SEED, '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; output so far:\n${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk;
      const m = /Listening on (127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`devgate exited with ${code}:\n${out}`)));
  });
  return { child, url: `http://${ready}/small/v3/key` };
}

const kill9 = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

interface Acked {
  readonly hash: string;
  /** The block and its stateRoot as read before the kill (absent if the kill came first). */
  seen?: { blockNumber: string; blockHash: string; stateRoot: string };
}

async function accountProofVerifies(url: string, address: string, block: { blockNumber: string; stateRoot: string }): Promise<void> {
  const proof = (await call(url, 'eth_getProof', [address, [], block.blockNumber])).result;
  const value = await verifyMerkleProof(
    hexToBytes(address as `0x${string}`),
    proof.accountProof.map((n: string) => hexToBytes(n as `0x${string}`)),
    { useKeyHashing: true, root: hexToBytes(block.stateRoot as `0x${string}`) },
  );
  expect(value).not.toBeNull();
}

describe('a data directory after kill -9', () => {
  it(`serves every answered transaction, with identical blocks, after ${ROUNDS} kills at random points`, { timeout: 240_000 }, async () => {
    const random = prng(14);
    const acked: Acked[] = [];
    let { child, url } = await launch();
    const accounts: string[] = (await call(url, 'eth_accounts')).result;
    for (let round = 0; round < ROUNDS; round++) {
      let stop = false;
      // Each account sends in turn (its nonces in order); an answer counts as an acknowledgement.
      const sender = async (from: string) => {
        while (!stop) {
          let hash: string | undefined;
          try {
            const res = await call(url, 'eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000000000c1', value: '0x1' }]);
            hash = res?.result;
          } catch {
            return;
          }
          if (typeof hash !== 'string') continue;
          const entry: Acked = { hash };
          acked.push(entry);
          try {
            const receipt = (await call(url, 'eth_getTransactionReceipt', [hash])).result;
            const block = (await call(url, 'eth_getBlockByHash', [receipt.blockHash, false])).result;
            entry.seen = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, stateRoot: block.stateRoot };
          } catch {
            return;
          }
        }
      };
      const editor = async () => {
        while (!stop) {
          try {
            if (random() < 0.5) await call(url, 'evm_mine');
            else await call(url, 'anvil_setBalance', ['0x00000000000000000000000000000000000000c2', `0x${Math.floor(random() * 1e6).toString(16)}`]);
          } catch {
            return;
          }
        }
      };
      const work = Promise.all([...accounts.slice(0, 4).map(sender), editor()]);
      await new Promise((r) => setTimeout(r, 300 + random() * 1200));
      await kill9(child);
      stop = true;
      await work;
      ({ child, url } = await launch());
      // Every answered send is there, in the block seen before the kill.
      for (const a of acked) {
        const receipt = (await call(url, 'eth_getTransactionReceipt', [a.hash])).result;
        expect(receipt, `receipt of ${a.hash} (round ${round})`).not.toBeNull();
        if (a.seen === undefined) continue;
        expect(receipt.blockHash).toBe(a.seen.blockHash);
        const block = (await call(url, 'eth_getBlockByNumber', [a.seen.blockNumber, false])).result;
        expect(block.hash).toBe(a.seen.blockHash);
        expect(block.stateRoot).toBe(a.seen.stateRoot);
      }
      // The chain links up from genesis; proofs at the blocks seen verify against their stateRoot.
      const head = Number((await call(url, 'eth_blockNumber')).result);
      let parent: string | undefined;
      for (let n = 0; n <= head; n++) {
        const block = (await call(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result;
        if (parent !== undefined) expect(block.parentHash).toBe(parent);
        parent = block.hash;
      }
      // (Not head: it may carry an unmined anvil_setBalance, which a proof at its number shows.)
      const seen = acked.filter((a) => a.seen !== undefined && Number(a.seen.blockNumber) < head).slice(-3);
      for (const a of seen) await accountProofVerifies(url, accounts[0]!, a.seen!);
      expect(acked.length).toBeGreaterThan(0);
    }
    // An answered revert is durable too: the reverted block is gone after a kill -9 right after the answer.
    const before = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
    const snapshot = (await call(url, 'evm_snapshot')).result;
    const mined = (await call(url, 'eth_sendTransaction', [{ from: accounts[0], to: '0x00000000000000000000000000000000000000c1', value: '0x1' }])).result;
    expect((await call(url, 'evm_revert', [snapshot])).result).toBe(true);
    await kill9(child);
    ({ child, url } = await launch());
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(before.hash);
    expect((await call(url, 'eth_getTransactionReceipt', [mined])).result).toBeNull();
    await kill9(child);
  });

  it('the CLI refuses a foreign directory with exit code 1 and a message naming it', () => {
    const foreign = mkdtempSync(join(tmpdir(), 'devgate-foreign-'));
    try {
      writeFileSync(join(foreign, 'photo.jpg'), 'not a chain');
      const r = spawnSync(process.execPath, [...CLI, '--port', '0', '--no-cache', '--chain', SEED, '--data-dir', foreign], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`devgate: ${foreign} is not a devgate data directory (it holds photo.jpg)`);
    } finally {
      rmSync(foreign, { recursive: true, force: true });
    }
  });
});
