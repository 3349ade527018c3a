/**
 * eth_sendTransaction and eth_signTransaction: a request from a dev account is filled and signed with its key; one
 * from an impersonated address is filled and given the stand-in signature (impersonation.ts). The node fills and sends
 * in one command on its writer (EthNode.sendRequest), so two requests from one account never take the same nonce.
 */
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { DevgateError } from '../../../errors.js';
import { feeMarketTx, type FeeMarketFields } from '../evm/feeMarketTx.js';
import type { EthChain } from '../chain/chain.js';
import type { Miner } from '../mining/miner.js';
import { txBuildRejected } from '../mining/rawTx.js';
import { fillTransaction, type SendRequest } from './fill.js';
import { impersonatedTx, type Impersonation } from './impersonation.js';

/** A transaction made from filled fields; @ethereumjs's refusals (EIP-7825's gas cap, ...) in geth's words. */
function made(make: () => TypedTransaction): TypedTransaction {
  try {
    return make();
  } catch (err) {
    throw txBuildRejected(err);
  }
}

/** The filled transaction of a request: signed by a dev account, or from an impersonated address (only on the node's writer: the nonce is the pool's next). */
export async function buildTransaction(
  chain: EthChain,
  miner: Miner,
  req: SendRequest,
  impersonation: Impersonation | undefined,
  allowImpersonated: boolean,
): Promise<TypedTransaction> {
  const data = await fillTransaction(chain, req, miner.nextBaseFee());
  const common = chain.rulesAt(chain.head().number + 1n, miner.nextHeader().timestamp!);
  const dev = chain.devAccounts().find((a) => a.address.equals(req.from));
  if (dev !== undefined) return made(() => createTx(data as never, { common }).sign(dev.privateKey));
  if (allowImpersonated && impersonation?.has(req.from)) return made(() => impersonatedTx(data, common, req.from));
  const does = allowImpersonated ? 'sends' : 'signs';
  const orImpersonated = allowImpersonated ? ' and impersonated ones (anvil_impersonateAccount)' : '';
  throw new DevgateError(`unknown account ${req.from.toString()}: devgate ${does} only for its dev accounts (eth_accounts)${orImpersonated}`);
}

/**
 * anvil's eth_sendUnsignedTransaction: the request filled from any `from` with the stand-in signature, as if that
 * address were impersonated for this one request (impersonation.ts); only on the node's writer.
 */
export async function unsignedTransaction(chain: EthChain, miner: Miner, req: SendRequest): Promise<TypedTransaction> {
  const data = await fillTransaction(chain, req, miner.nextBaseFee());
  const common = chain.rulesAt(chain.head().number + 1n, miner.nextHeader().timestamp!);
  return made(() => impersonatedTx(data, common, req.from));
}

/**
 * geth's eth_fillTransaction: the request filled as eth_signTransaction fills it (nonce from the pool, gas by
 * estimate, EIP-1559 fees unless gasPrice is given, chain id), left unsigned. Any sender (geth's zero address when
 * `from` is absent): nothing is signed or sent, so it takes no writer.
 */
export async function fillRequest(chain: EthChain, miner: Miner, req: SendRequest): Promise<TypedTransaction> {
  const data = await fillTransaction(chain, req, miner.nextBaseFee());
  const opts = { common: chain.rulesAt(chain.head().number + 1n, miner.nextHeader().timestamp!) };
  // A type 2 fill (viem's usual write) without the stock constructor's copies where it surely accepts the fields.
  if (data.type === 2) return made(() => feeMarketTx(data as FeeMarketFields, opts));
  return made(() => createTx(data as never, opts));
}
