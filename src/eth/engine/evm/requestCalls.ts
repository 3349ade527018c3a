/**
 * The EIP-7002 (withdrawal requests) and EIP-7251 (consolidation requests) system calls a Prague block ends with,
 * answered without running their contracts when the answer is known: @ethereumjs's accumulateRequests
 * (vm/dist/esm/requests.js) runs each as `evm.runCall({ caller: SYSTEM_ADDRESS, gasLimit, to })` and keeps only
 * its return value, then puts the system account back as it was. With the EIPs' own contract code at the address
 * and its four counters (slot 0 excess, 1 count, 2 queue head, 3 queue tail) all zero, the contract dequeues
 * nothing, writes back the zeros it read and returns nothing (the EIPs' `read_*_requests`: the queue pointers are
 * reset to 0 and the excess becomes max(0, excess + count - target) = 0): no state changes, an empty answer. The
 * runCall stand-in then only touches the caller and the contract (EIP-161 bookkeeping, as runCall's nonce and
 * value transfers do); everything else (other code, a queue in use, an excess left, Amsterdam's block access list
 * and state gas, DEBUG, step listeners) runs stock. test/eth/engine/evm/requestCalls.test.ts holds it to stock runs.
 */
import type { EVMResult, EVMRunCallOpts } from '@ethereumjs/evm';
import { bigIntToAddressBytes, equalsBytes, hexToBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { SYSTEM_CONTRACTS } from '../build/systemContracts.js';
import { gate } from './gate.js';
import { stateCaches, storageCacheGetHex } from './merkleState.js';
import { plainHex } from '../../../hex.js';

interface EvmInternals {
  DEBUG: boolean;
  _optsCached: { profiler?: { enabled?: boolean } };
  events?: { listenerCount(name: string): number };
  journal: { touchAccount(addressHex: string): void };
  stateManager: VM['stateManager'];
  runCall(opts: EVMRunCallOpts): Promise<EVMResult>;
}

const QUEUE_CONTRACTS = SYSTEM_CONTRACTS.filter((c) => c.name.startsWith('EIP-7002') || c.name.startsWith('EIP-7251'));
const SLOTS = [0, 1, 2, 3].map((n) => {
  const slot = new Uint8Array(32);
  slot[31] = n;
  return { slot, hex: plainHex(slot) };
});
/** The RLP a state cache holds for a slot known to be zero (canonical: a zero value is never cached another way). */
const isEmptyRLP = (rlp: Uint8Array): boolean => rlp.length === 1 && rlp[0] === 0x80;

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** Whether `vm`'s request system calls may be answered here (on the tested @ethereumjs versions only). */
export function shortcutRequestCalls(vm: VM): boolean {
  const common = vm.common;
  if (!gate.on || !common.isActivatedEIP(7685) || common.isActivatedEIP(7928) || common.isActivatedEIP(8037)) return false;
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  const systemBytes = bigIntToAddressBytes(common.param('systemAddress'));
  const system = { bytes: systemBytes, hex: plainHex(systemBytes) };
  const known = QUEUE_CONTRACTS.map((c) => {
    const address = hexToBytes(c.address as `0x${string}`);
    return { address, hex: plainHex(address), codeHash: keccak(hexToBytes(c.code as `0x${string}`)) };
  });
  const evm = vm.evm as unknown as EvmInternals;
  const stock = evm.runCall;
  evm.runCall = async function runCall(this: EvmInternals, opts: EVMRunCallOpts): Promise<EVMResult> {
    const answered = await emptyQueue(this, opts, system, known);
    if (answered === undefined) return stock.call(this, opts);
    return answered;
  };
  return true;
}

async function emptyQueue(
  evm: EvmInternals,
  opts: EVMRunCallOpts,
  system: { readonly bytes: Uint8Array; readonly hex: string },
  known: readonly { address: Uint8Array; hex: string; codeHash: Uint8Array }[],
): Promise<EVMResult | undefined> {
  const { caller, to } = opts;
  // accumulateRequests passes these three and nothing else (runTx's calls come with a block, a gas price, data...).
  for (const key in opts) if (key !== 'caller' && key !== 'gasLimit' && key !== 'to') return undefined;
  if (caller === undefined || to === undefined || !equalsBytes(caller.bytes, system.bytes)) return undefined;
  const contract = known.find((k) => equalsBytes(k.address, to.bytes));
  if (contract === undefined) return undefined;
  if (evm.DEBUG || evm._optsCached.profiler?.enabled === true) return undefined;
  if (evm.events !== undefined && evm.events.listenerCount('step') > 0) return undefined;
  const state = evm.stateManager;
  const account = await state.getAccount(to);
  if (account === undefined || !equalsBytes(account.codeHash, contract.codeHash)) return undefined;
  // The counters as the state's caches hold them, read by the keys made once (they are read every block); a slot not
  // cached (or a cache off) is read through the state manager, whose read on a cached slot gives the same.
  const cache = stateCaches(state as MerkleStateManager)?.storage;
  for (const { slot, hex } of SLOTS) {
    const cached = cache === undefined ? undefined : storageCacheGetHex(cache, contract.hex, hex);
    if (cached !== undefined ? !isEmptyRLP(cached) : !isZero(await state.getStorage(to, slot))) return undefined;
  }
  // What runCall leaves in the journal: the caller (its nonce) and the contract (the zero value) touched, by the
  // unprefixed hex touchAddress makes of them.
  evm.journal.touchAccount(system.hex);
  evm.journal.touchAccount(contract.hex);
  // accumulateRequests reads the return value only (the contract's answer: no requests).
  return { execResult: { returnValue: new Uint8Array(0) } } as unknown as EVMResult;
}
