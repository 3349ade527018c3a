/**
 * The fields eth_sendTransaction and eth_signTransaction fill in, as geth and anvil do: nonce from the pool,
 * gas by estimate, EIP-1559 fees from the fee market (type 2 unless gasPrice is given; type 4 with an authorization
 * list), chain id.
 */
import type { AccessListBytes, TxData } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';
import type { CallRequest } from '../exec/call.js';
import { estimateGasAt } from '../exec/estimate.js';
import { suggestTip } from '../query/fees.js';

/** A transaction request as eth_sendTransaction takes it (a call object with a sender). */
export interface SendRequest extends CallRequest {
  readonly from: Address;
}

/** The next nonce of `sender`: its account nonce, past its pool transactions with consecutive nonces. */
export async function nextNonce(chain: EthChain, sender: Address): Promise<bigint> {
  let nonce = (await chain.getAccount(sender, chain.head()))?.nonce ?? 0n;
  const mine = new Set(
    chain
      .pendingTransactions()
      .filter((p) => p.sender.equals(sender))
      .map((p) => p.tx.nonce),
  );
  while (mine.has(nonce)) nonce++;
  return nonce;
}

/**
 * The suggested tip at `chain`'s head, worked out at most once per head block (geth's oracle walks 20 to 40 blocks;
 * every fill of a suite between two blocks asks it): a head block object stands for its whole history, so the tip of
 * the same head object never changes. Lazy: a request that names its fees does not ask.
 */
function tipAt(chain: EthChain): () => bigint {
  return () => {
    const head = chain.head();
    let tip = tips.get(head);
    if (tip === undefined) tips.set(head, (tip = suggestTip(chain)));
    return tip;
  };
}

const tips = new WeakMap<object, bigint>();

/** The transaction data of a request with every field filled; `baseFee` is the next block's. */
export async function fillTransaction(chain: EthChain, req: SendRequest, baseFee: bigint | undefined): Promise<TxData[keyof TxData]> {
  const nonce = req.nonce ?? (await nextNonce(chain, req.from));
  const gasLimit = req.gas ?? (await estimateGasAt(chain, chain.head(), { ...req, nonce }));
  const common = chain.common;
  const tip = tipAt(chain);
  const base = { nonce, gasLimit, to: req.to, value: req.value ?? 0n, data: req.data ?? new Uint8Array() };
  const accessList: AccessListBytes | undefined = req.accessList;
  if (req.gasPrice !== undefined || baseFee === undefined) {
    const gasPrice = req.gasPrice ?? (baseFee === undefined ? tip() : baseFee + tip());
    if (accessList !== undefined && common.isActivatedEIP(2930)) return { ...base, type: 1, gasPrice, accessList, chainId: chain.chainId };
    return { ...base, type: 0, gasPrice };
  }
  const maxPriorityFeePerGas = req.maxPriorityFeePerGas ?? (req.maxFeePerGas !== undefined && req.maxFeePerGas < tip() ? req.maxFeePerGas : tip());
  const maxFeePerGas = req.maxFeePerGas ?? baseFee * 2n + maxPriorityFeePerGas;
  const fees = { ...base, maxFeePerGas, maxPriorityFeePerGas, accessList: accessList ?? [], chainId: chain.chainId };
  // geth's ToTransaction: an authorization list makes a set-code (type 4) transaction.
  if (req.authorizationList !== undefined) return { ...fees, type: 4, authorizationList: req.authorizationList };
  return { ...fees, type: 2 };
}
