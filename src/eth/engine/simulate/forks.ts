/**
 * Which hardfork a simulated block runs under, as geth's simulator picks it. geth's EVM takes its rules from
 * ChainConfig.Rules(number, isMerge, time), where isMerge is "the header's difficulty is 0" (and London is active):
 * the time forks (Shanghai on) count only for a merged header. The header's own fields (withdrawals root, blob gas,
 * beacon root, requests) and the system calls follow ChainConfig.IsShanghai/IsCancun/IsPrague(number, time), which
 * ask for London and the time only. A simulated header copies the previous one's difficulty (the base block's
 * first), so a simulation from a block before the merge with times past Shanghai runs the EVM under the rules of
 * its number while its header carries the fields of the time's fork (geth internal/ethapi/simulate.go makeHeaders
 * and processBlock; params/config.go Rules). @ethereumjs refuses to pick such a fork by number and time ("Maximum HF
 * determined by block number is lower than timestamp HF"): the forks are chosen here and set by name.
 */
import { Block, createBlockHeader, genWithdrawalsTrieRoot, type HeaderData } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createWithdrawal, type WithdrawalData } from '@ethereumjs/util';
import { SimulationError } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';

export interface BlockForks {
  /** The hardfork the EVM (and the block's rewards) runs under: geth's Rules. */
  readonly rules: string;
  /** The fork whose header fields the block carries: `rules`, or a later time fork when the header is not merged. */
  readonly header: string;
}

interface ForkEntry {
  readonly name: string;
  readonly block: bigint | undefined;
  readonly timestamp: bigint | undefined;
}

const schedules = new WeakMap<EthChain, ForkEntry[] | null>();

/** The chain's hardforks in order with their activation (null: no schedule, every block runs the chain's one fork). */
function scheduleOf(chain: EthChain): ForkEntry[] | null {
  let list = schedules.get(chain);
  if (list !== undefined) return list;
  const hfs = chain.common.hardforks();
  // As the chain decides it (chain/create.ts).
  const scheduled = hfs.some((h) => Number(h.block ?? 0) > 0 || Number(h.timestamp ?? 0) > 0 || (h as { ttd?: unknown }).ttd != null);
  list = scheduled
    ? hfs.map((h) => ({
        name: h.name,
        block: h.block === null || h.block === undefined ? undefined : BigInt(h.block),
        timestamp: h.timestamp === null || h.timestamp === undefined ? undefined : BigInt(h.timestamp),
      }))
    : null;
  schedules.set(chain, list);
  return list;
}

/** The forks of a simulated block at this number, time and difficulty. */
export function forksAt(chain: EthChain, number: bigint, time: bigint, difficulty: bigint): BlockForks {
  const list = scheduleOf(chain);
  if (list === null) {
    const only = chain.common.hardfork();
    return { rules: only, header: only };
  }
  const london = list.find((h) => h.name === 'london');
  const isLondon = london?.block !== undefined && number >= london.block;
  const merged = difficulty === 0n && isLondon;
  let rules = list[0]!.name;
  let header: string | undefined;
  let afterParis = false;
  for (const h of list) {
    if (h.name === 'paris') {
      afterParis = true;
      if (merged) rules = h.name;
      continue;
    }
    if (h.timestamp !== undefined) {
      // A time fork: geth's IsShanghai... (London and the time) for the header, merge-gated for the rules.
      if (isLondon && time >= h.timestamp) {
        header = h.name;
        if (merged) rules = h.name;
      }
      continue;
    }
    if (h.block === undefined || number < h.block) continue;
    // Number forks after the merge (mergeNetsplitBlock) change no rule: named only on a merged header.
    if (!afterParis || merged) rules = h.name;
  }
  return { rules, header: header ?? rules };
}

const headerCommons = new WeakMap<EthChain, Map<string, Common>>();

/** A Common of `chain` at `hardfork` for headers (kept per chain and fork; never handed to a VM). */
function headerCommon(chain: EthChain, hardfork: string): Common {
  let byFork = headerCommons.get(chain);
  if (byFork === undefined) headerCommons.set(chain, (byFork = new Map()));
  let common = byFork.get(hardfork);
  if (common === undefined) {
    common = chain.common.copy();
    common.setHardfork(hardfork);
    byFork.set(hardfork, common);
  }
  return common;
}

/**
 * What geth does before the calls of a block whose header is past Prague while its rules are not merged: its
 * EIP-2935 system call runs the history contract under pre-Shanghai rules, where PUSH0 is no opcode; the call
 * fails, geth's ProcessParentBlockHash panics and its RPC server answers -32603 "method handler crashed" (with the
 * contract's code gone, by a state override, geth fails later with another error: not followed).
 */
export function checkUnmergedSystemCalls(chain: EthChain, forks: BlockForks): void {
  if (forks.header !== forks.rules && headerCommon(chain, forks.header).isActivatedEIP(2935)) throw new SimulationError(-32603, 'method handler crashed');
}

/**
 * The block geth assembles when the header's fork is past the rules' (forksAt): `built` was made under the rules
 * (no withdrawal credited, no beacon root stored: geth's EIP-4788 call fails at PUSH0 under these rules, and its
 * pre-merge Finalize pays the block reward and no withdrawal), and its header gets the header fork's fields:
 * the withdrawals root of the block's withdrawals, blob gas used 0 and the excess blob gas after the parent's, the
 * beacon root (zero unless overridden).
 */
export async function unmergedBlock(
  chain: EthChain,
  forks: BlockForks,
  built: Block,
  parent: Block,
  withdrawals: readonly WithdrawalData[],
  beaconRoot: Uint8Array | undefined,
): Promise<Block> {
  const common = headerCommon(chain, forks.header);
  const list = withdrawals.map(createWithdrawal);
  const data: HeaderData = { ...built.header.toJSON(), withdrawalsRoot: await genWithdrawalsTrieRoot(list) };
  if (common.isActivatedEIP(4844)) {
    data.blobGasUsed = 0n;
    data.excessBlobGas = parent.header.excessBlobGas === undefined ? 0n : parent.header.calcNextExcessBlobGas(common);
    data.parentBeaconBlockRoot = beaconRoot ?? new Uint8Array(32);
  }
  const header = createBlockHeader(data, { common, skipConsensusFormatValidation: true });
  return new Block(header, built.transactions, [], list, { common });
}
