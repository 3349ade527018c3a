/**
 * eth_createAccessList as geth computes it: run the call as a transaction with the access list found so
 * far until the list no longer changes; sender, recipient and precompiles are not listed unless their
 * storage is touched. Gas: the RPC cap, and EIP-7825's per-tx cap from Osaka. Answers the list (sorted
 * by address, keys sorted), the gas used with it, and the execution error of the last run, if any (a
 * revert is part of the answer, not an RPC error).
 */
import type { AccessListBytes } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, createZeroAddress, generateAddress, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { ExecutionFailed } from '../../../errors.js';
import { cappedGas, runCallTx, withTxVmAt, type CallRequest } from './call.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import { withStateOverride, type StateOverride } from './overrides.js';
import { hexBytes, plainHex } from '../../../hex.js';

export interface AccessListResult {
  readonly accessList: AccessListBytes;
  readonly gasUsed: bigint;
  /** The EVM error of the final run (`execution reverted`, `out of gas`, ...). */
  readonly error?: string;
}

/** Most rounds before giving up on a list that keeps changing (geth loops until it is stable). */
const MAX_ROUNDS = 16;

/** `overrides`: geth's state override of eth_createAccessList (it treats no address as a precompile there). */
export async function createAccessListAt(chain: EthChain, block: MinedBlock, req: CallRequest, overrides?: StateOverride): Promise<AccessListResult> {
  return withTxVmAt(chain, block, (vm) => withStateOverride(vm, overrides, () => createAccessList(vm, block, req), { precompiles: false }));
}

export async function createAccessList(vm: VM, block: MinedBlock, req: CallRequest): Promise<AccessListResult> {
  if (!vm.common.isActivatedEIP(2930)) throw new ExecutionFailed('access lists need the berlin hardfork (EIP-2930)');
  let gasLimit = cappedGas(block, req.gas);
  if (vm.common.isActivatedEIP(7825)) {
    const maxTxGas = vm.common.param('maxTransactionGasLimit');
    if (gasLimit > maxTxGas) gasLimit = maxTxGas;
  }
  let list: AccessListBytes = normalize(req.accessList ?? []);
  // Like the recipient, the address a creation makes is left out unless its storage is touched (geth).
  const created = req.to === undefined ? hex(await createdAddress(vm, req)) : undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let run;
    try {
      run = await runCallTx(vm, block, req, gasLimit, { accessList: list, reportAccessList: true });
    } catch (err) {
      throw new ExecutionFailed(`failed to apply transaction: ${err instanceof Error ? err.message.replace(/ \(block number=.*$/s, '') : String(err)}`);
    }
    const next = normalize(
      (run.accessList ?? [])
        .filter((e) => !(e.storageKeys.length === 0 && e.address.replace(/^0x/, '') === created))
        .map((e): [Uint8Array, Uint8Array[]] => [
          hexToBytes(e.address as PrefixedHexString),
          e.storageKeys.map((k) => setLengthLeft(hexToBytes(k as PrefixedHexString), 32)),
        ]),
    );
    if (sameList(next, list)) {
      const error = run.evmError === undefined ? undefined : run.evmError === 'revert' ? 'execution reverted' : run.evmError;
      return { accessList: list, gasUsed: run.gasUsed, error };
    }
    list = next;
  }
  throw new ExecutionFailed('access list did not converge');
}

/** The address a creation by `from` makes: from its nonce (given, or the account's). */
async function createdAddress(vm: VM, req: CallRequest): Promise<Uint8Array> {
  const from = req.from ?? createZeroAddress();
  const nonce = req.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
  return generateAddress(from.bytes, bigIntToUnpaddedBytes(nonce));
}

const hex = plainHex;

/** Sorted by address, keys sorted and unique. */
function normalize(list: AccessListBytes): AccessListBytes {
  const byAddress = new Map<string, Set<string>>();
  for (const [address, keys] of list) {
    const set = byAddress.get(hex(address)) ?? new Set<string>();
    for (const k of keys) set.add(hex(k));
    byAddress.set(hex(address), set);
  }
  return [...byAddress.keys()].sort().map((a): [Uint8Array, Uint8Array[]] => [hexBytes(a), [...byAddress.get(a)!].sort().map((k) => hexBytes(k))]);
}

function sameList(a: AccessListBytes, b: AccessListBytes): boolean {
  if (a.length !== b.length) return false;
  return a.every(([addr, keys], i) => hex(addr) === hex(b[i]![0]) && keys.length === b[i]![1].length && keys.every((k, j) => hex(k) === hex(b[i]![1][j]!)));
}
