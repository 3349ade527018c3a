/**
 * What starknet_call answers without running Cairo: the views the simulation models, read from its
 * state. Fee tokens (seed `feeTokens`): balanceOf/balance_of and allowance (u256 [low, high], read from
 * the token's storage at OZ's addresses, src/rollup/engine/feeToken.ts), decimals (18), symbol, name,
 * totalSupply/total_supply (its ERC20_total_supply storage).
 * Accounts: get_public_key/getPublicKey, get_nonce/getNonce. Anything else: error 40, saying so.
 */
import { keccak } from '@scure/starknet';
import { RollupError } from '../../errors.js';
import type { RollupConfig } from '../engine/chain.js';
import { deployedAt } from '../engine/execute.js';
import { allowanceIn, balanceIn, totalSupplyIn, u256 } from '../engine/feeToken.js';
import { shortString } from '../engine/hash.js';
import type { Felt, RollupState } from '../engine/types.js';
import { feltHex } from '../format.js';

const selector = (name: string): Felt => keccak(new TextEncoder().encode(name));
const sel = (...names: string[]) => new Set(names.map(selector));
const BALANCE = sel('balanceOf', 'balance_of');
const DECIMALS = sel('decimals');
const SYMBOL = sel('symbol');
const NAME = sel('name');
const SUPPLY = sel('totalSupply', 'total_supply');
const PUBLIC_KEY = sel('get_public_key', 'getPublicKey');
const NONCE = sel('get_nonce', 'getNonce');
const ALLOWANCE = sel('allowance');

export interface CallRequest {
  readonly contractAddress: Felt;
  readonly selector: Felt;
  readonly calldata: readonly Felt[];
}

/** The result felts of a modelled view; error 20 for an undeployed contract, 40 for what is not modelled. */
export function modelledCall(state: RollupState, config: RollupConfig, req: CallRequest): Felt[] {
  const contract = deployedAt(state, req.contractAddress);
  if (contract === undefined) throw new RollupError(20, 'Contract not found');
  const token = req.contractAddress === config.feeTokens.eth ? 'eth' : req.contractAddress === config.feeTokens.strk ? 'strk' : undefined;
  if (token !== undefined) {
    const address = req.contractAddress;
    if (BALANCE.has(req.selector)) {
      if (req.calldata.length !== 1) throw notModelled(req, `balanceOf takes one argument (the account), got ${req.calldata.length}`);
      return u256(balanceIn(state, address, req.calldata[0]!));
    }
    if (ALLOWANCE.has(req.selector)) {
      if (req.calldata.length !== 2) throw notModelled(req, `allowance takes two arguments (owner, spender), got ${req.calldata.length}`);
      return u256(allowanceIn(state, address, req.calldata[0]!, req.calldata[1]!));
    }
    if (DECIMALS.has(req.selector)) return [18n];
    if (SYMBOL.has(req.selector)) return [shortString(token === 'eth' ? 'ETH' : 'STRK')];
    if (NAME.has(req.selector)) return [shortString(token === 'eth' ? 'Ether' : 'Starknet Token')];
    if (SUPPLY.has(req.selector)) return u256(totalSupplyIn(state, address));
  }
  if (contract.publicKey !== undefined) {
    if (PUBLIC_KEY.has(req.selector)) return [contract.publicKey];
    if (NONCE.has(req.selector)) return [contract.nonce];
  }
  throw notModelled(req);
}

function notModelled(req: CallRequest, why?: string): RollupError {
  const base = `devgate does not execute Cairo: contract ${feltHex(req.contractAddress)} has no view modelled for selector ${feltHex(req.selector)} (see docs/starknet.md "The starknet_call rule")`;
  return new RollupError(40, 'Contract error', { revert_error: why === undefined ? base : `${base}: ${why}` });
}
