/**
 * Test-side transaction building: wire INVOKE transactions whose hashes starknet.js computes and
 * whose signatures @scure/starknet makes, independently of devgate's engine.
 */
import { getStarkKey, sign } from '@scure/starknet';
import { type constants, hash, shortString, transaction } from 'starknet';

export const SN_MAIN = shortString.encodeShortString('SN_MAIN') as constants.StarknetChainId;
export const QUERY_V1 = '0x100000000000000000000000000000001';
export const QUERY_V3 = '0x100000000000000000000000000000003';

export const hex = (n: bigint | number) => '0x' + BigInt(n).toString(16);
export const selector = (name: string) => hash.getSelectorFromName(name);

/** A dev account: address and private key (its public key is the stark key). */
export interface TestAccount {
  readonly address: string;
  readonly privateKey: string;
}

export const publicKeyOf = (a: TestAccount) => getStarkKey(a.privateKey);

export interface CallSpec {
  readonly to: string;
  readonly entrypoint: string;
  readonly calldata: readonly (string | bigint | number)[];
}

/** Cairo 1 account `__execute__` calldata for calls, by starknet.js. */
export function executeCalldata(calls: readonly CallSpec[]): string[] {
  const raw = transaction.getExecuteCalldata(
    calls.map((c) => ({ contractAddress: c.to, entrypoint: c.entrypoint, calldata: c.calldata.map((x) => hex(BigInt(x))) })),
    '1',
  ) as string[];
  return raw.map((x) => hex(BigInt(x)));
}

/** starknet.js's hash of a wire INVOKE transaction (v1, v3 or their query versions). */
export function starknetJsHash(tx: Record<string, any>, chainId = SN_MAIN): string {
  const v3 = BigInt(tx.version) === 3n || tx.version === QUERY_V3;
  if (!v3) {
    return hash.calculateInvokeTransactionHash({
      senderAddress: tx.sender_address,
      version: tx.version,
      compiledCalldata: tx.calldata,
      maxFee: tx.max_fee,
      chainId,
      nonce: tx.nonce,
    } as any);
  }
  const rb = tx.resource_bounds;
  return hash.calculateInvokeTransactionHash({
    senderAddress: tx.sender_address,
    version: tx.version,
    compiledCalldata: tx.calldata,
    chainId,
    nonce: tx.nonce,
    accountDeploymentData: tx.account_deployment_data ?? [],
    nonceDataAvailabilityMode: tx.nonce_data_availability_mode === 'L2' ? 1 : 0,
    feeDataAvailabilityMode: tx.fee_data_availability_mode === 'L2' ? 1 : 0,
    resourceBounds: rb,
    tip: tx.tip ?? '0x0',
    paymasterData: tx.paymaster_data ?? [],
  } as any);
}

/** Signs a transaction's starknet.js hash with the account's key: `signature` = [r, s]. */
export function signed<T extends Record<string, any>>(tx: T, account: TestAccount, chainId = SN_MAIN): T & { signature: string[] } {
  const h = starknetJsHash({ ...tx, signature: [] }, chainId);
  const sig = sign(h, account.privateKey);
  return { ...tx, signature: [hex(sig.r), hex(sig.s)] };
}

/** An INVOKE v1 transaction, signed. */
export function invokeV1(account: TestAccount, calls: readonly CallSpec[], nonce: number | bigint, opts: { maxFee?: bigint; query?: boolean } = {}) {
  return signed(
    {
      type: 'INVOKE',
      version: opts.query ? QUERY_V1 : '0x1',
      sender_address: account.address,
      calldata: executeCalldata(calls),
      nonce: hex(nonce),
      max_fee: hex(opts.maxFee ?? 10n ** 15n),
    },
    account,
  );
}

/** An INVOKE v3 transaction (RPC 0.8 bounds with l1_data_gas), signed. */
export function invokeV3(
  account: TestAccount,
  calls: readonly CallSpec[],
  nonce: number | bigint,
  opts: { query?: boolean; maxAmount?: bigint; maxPrice?: bigint } = {},
) {
  const bound = (a: bigint, p: bigint) => ({ max_amount: hex(a), max_price_per_unit: hex(p) });
  return signed(
    {
      type: 'INVOKE',
      version: opts.query ? QUERY_V3 : '0x3',
      sender_address: account.address,
      calldata: executeCalldata(calls),
      nonce: hex(nonce),
      resource_bounds: { l1_gas: bound(opts.maxAmount ?? 20_000n, opts.maxPrice ?? 10n ** 14n), l2_gas: bound(0n, 0n), l1_data_gas: bound(0n, 0n) },
      tip: '0x0',
      paymaster_data: [],
      account_deployment_data: [],
      nonce_data_availability_mode: 'L1',
      fee_data_availability_mode: 'L1',
    },
    account,
  );
}
