/**
 * Test controls of a rollup network, after starknet-devnet's devnet_ API: minting fee tokens, balances,
 * the predeployed accounts, the configuration, gas prices of the next blocks, block abortion, and
 * snapshots (src/rollup/engine/snapshots.ts). One RollupControls per chain: the network makes it at
 * start (so `restart` knows the chain as served), methods and the `gw.rollup()` handle share it.
 *
 * Minting is a real transaction, as on starknet-devnet: an INVOKE v3 from devnet's chargeable account
 * (its address and key, deployed into the state by the first mint) calling `permissioned_mint(recipient,
 * amount_low, amount_high)` on the fee token, signed, hashed and charged like any other, with a
 * `Transfer` event from the token in its receipt. The simulation does not run Cairo: the credit to the
 * recipient is applied with the transaction, in the pending block, and the next sealed block commits it.
 */
import { getStarkKey, keccak, sign } from '@scure/starknet';
import { DevgateError, InvalidArgument, RollupError } from '../../errors.js';
import type { RollupChain } from './chain.js';
import { deployedAt } from './execute.js';
import { balanceIn, creditBalances, DEVNET_MINTER } from './feeToken.js';
import { GWEI } from './fees.js';
import { invokeTransactionHash } from './hash.js';
import { RollupSnapshots } from './snapshots.js';
import type { BlockId, ContractState, Felt, GasPrices, InvokeV3, SealedBlock } from './types.js';

/** starknet-devnet's chargeable account: it signs and pays for mints. */
export const CHARGEABLE_ACCOUNT = {
  address: DEVNET_MINTER,
  privateKey: 0x5fb2959e3011a873a7160f5bb32b0ecen,
  /** starknet-devnet's default (Cairo 1 OpenZeppelin) account class. */
  classHash: 0x61dac032f228abef9c6626f995015233097ae253a7f72d68552db02f2971b8fn,
} as const;

/** Fee-token balances stay below this (as seeds keep them): the simulation's fee arithmetic assumes it. */
export const MAX_BALANCE = 1n << 128n;
/** The chargeable account's balance of each token when the first mint deploys it. */
const CHARGEABLE_BALANCE = MAX_BALANCE - 1n;

export type FeeUnit = 'WEI' | 'FRI';

/** A predeployed account as the seed lists it. */
export interface PredeployedAccount {
  readonly address: Felt;
  readonly publicKey: Felt;
  /** Absent when the seed does not give it. */
  readonly privateKey?: Felt;
  readonly classHash: Felt;
  readonly initialBalanceWei: bigint;
  readonly initialBalanceFri: bigint;
}

/** The gas prices devnet_setGasPrice reports: L1 gas (changeable), L1 data gas and L2 gas (the network's). */
export interface GasPriceReport {
  readonly l1: GasPrices;
  readonly data: GasPrices;
  readonly l2: GasPrices;
}

const selector = (name: string): Felt => keccak(new TextEncoder().encode(name));
const PERMISSIONED_MINT = selector('permissioned_mint');
const U128 = (1n << 128n) - 1n;
const felt = (n: bigint) => '0x' + n.toString(16);

const registry = new WeakMap<RollupChain, RollupControls>();

export class RollupControls {
  readonly snapshots: RollupSnapshots;

  private constructor(
    readonly chain: RollupChain,
    readonly accounts: readonly PredeployedAccount[],
  ) {
    this.snapshots = new RollupSnapshots(chain);
  }

  /** Makes the controls of a chain as it is now served (the state `restart` goes back to). */
  static attach(chain: RollupChain, accounts: readonly PredeployedAccount[]): RollupControls {
    const controls = new RollupControls(chain, accounts);
    registry.set(chain, controls);
    return controls;
  }

  /** The controls of a chain (made now, with no predeployed accounts, if the network did not make them). */
  static of(chain: RollupChain): RollupControls {
    return registry.get(chain) ?? RollupControls.attach(chain, []);
  }

  /** A fee-token balance (ETH in wei, STRK in fri) at a block: the token's storage (0 where it holds none). */
  balance(address: Felt, unit: FeeUnit, id: BlockId = { tag: 'latest' }): bigint {
    const block = this.chain.block(id);
    if (block === undefined) throw new RollupError(24, 'Block not found');
    return balanceIn(this.chain.stateAt(block), this.token(unit), address);
  }

  private token(unit: FeeUnit): Felt {
    return unit === 'WEI' ? this.chain.config.feeTokens.eth : this.chain.config.feeTokens.strk;
  }

  /**
   * Mints `amount` of a fee token to a deployed contract by a transaction in the pending block (see
   * the file's comment); answers the pending balance after it and the transaction's hash.
   */
  mint(address: Felt, amount: bigint, unit: FeeUnit): { newBalance: bigint; txHash: Felt } {
    const chain = this.chain;
    const token = this.token(unit);
    const before = chain.stateAt(chain.pending());
    if (deployedAt(before, token) === undefined)
      throw new DevgateError(`the ${unit === 'WEI' ? 'ETH' : 'STRK'} fee token ${felt(token)} is not deployed on this network (seed feeTokens and contracts)`);
    const recipient = before.get(address);
    if (recipient === undefined) {
      throw new DevgateError(`no contract at ${felt(address)}: devgate keeps fee-token balances on deployed contracts only (it models no DEPLOY_ACCOUNT)`);
    }
    const newBalance = balanceIn(before, token, address) + amount;
    if (newBalance >= MAX_BALANCE) throw new InvalidArgument(`"amount": the balance would reach ${newBalance}; devgate keeps fee-token balances below 2^128`);

    const c = chain.config;
    let payer = before.get(CHARGEABLE_ACCOUNT.address);
    if (payer === undefined) {
      const account: ContractState = {
        classHash: CHARGEABLE_ACCOUNT.classHash,
        publicKey: BigInt(getStarkKey(felt(CHARGEABLE_ACCOUNT.privateKey))),
        nonce: 0n,
        storage: new Map(),
      };
      payer = account;
      const { eth, strk } = c.feeTokens;
      chain.editPendingState((s) => {
        const next = new Map(s).set(CHARGEABLE_ACCOUNT.address, account);
        for (const t of [eth, strk]) creditBalances(next, t, [[CHARGEABLE_ACCOUNT.address, CHARGEABLE_BALANCE]]);
        return next;
      });
    }
    const bound = (maxAmount: bigint, maxPricePerUnit: bigint) => ({ maxAmount, maxPricePerUnit });
    const unsigned: InvokeV3 = {
      version: 3,
      query: false,
      senderAddress: CHARGEABLE_ACCOUNT.address,
      calldata: [1n, token, PERMISSIONED_MINT, 3n, address, amount & U128, amount >> 128n],
      signature: [],
      nonce: payer.nonce,
      resourceBounds: {
        l1Gas: bound(1_000_000n, c.gasPrices.fri),
        l1DataGas: bound(1_000_000n, c.dataGasPrices.fri),
        l2Gas: bound(1_000_000_000n, c.l2GasPrices.fri),
      },
      tip: 0n,
      paymasterData: [],
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 'L1',
      feeDataAvailabilityMode: 'L1',
    };
    const sig = sign(felt(invokeTransactionHash(unsigned, c.chainId)), felt(CHARGEABLE_ACCOUNT.privateKey));
    let txHash: Felt;
    try {
      txHash = chain.addInvokeTransaction({ ...unsigned, signature: [sig.r, sig.s] });
    } catch (err) {
      chain.editPendingState(() => before); // a failed mint leaves nothing behind
      throw err;
    }
    return { newBalance: this.balance(address, unit, { tag: 'pending' }), txHash };
  }

  /**
   * Sets the L1 gas prices of the blocks after the pending one (starknet-devnet's devnet_setGasPrice);
   * with `generateBlock` the pending block is sealed now, so they apply from the next one. L1 data gas
   * and L2 gas prices are the network's (every block header shows them): asking for other values is refused.
   */
  setGasPrice(req: { wei?: bigint; fri?: bigint; dataWei?: bigint; dataFri?: bigint; l2Wei?: bigint; l2Fri?: bigint }, generateBlock = false): GasPriceReport {
    const c = this.chain.config;
    const fixed = [
      ['data_gas_price_wei', req.dataWei, c.dataGasPrices.wei],
      ['data_gas_price_fri', req.dataFri, c.dataGasPrices.fri],
      ['l2_gas_price_wei', req.l2Wei, c.l2GasPrices.wei],
      ['l2_gas_price_fri', req.l2Fri, c.l2GasPrices.fri],
    ] as const;
    for (const [name, asked, current] of fixed) {
      if (asked !== undefined && asked !== current)
        throw new InvalidArgument(`"${name}": devgate keeps L1 data gas and L2 gas prices per network (set them in the seed), not per block; it is ${current}`);
    }
    for (const [name, v] of [
      ['gas_price_wei', req.wei],
      ['gas_price_fri', req.fri],
    ] as const) {
      if (v !== undefined && (v === 0n || v % GWEI !== 0n || v >= MAX_BALANCE))
        throw new InvalidArgument(`"${name}": want a non-zero whole number of gwei (a multiple of 10^9) below 2^128, got ${v}`);
    }
    const l1 = { wei: req.wei ?? c.gasPrices.wei, fri: req.fri ?? c.gasPrices.fri };
    this.chain.setNextGasPrices(l1);
    if (generateBlock) this.chain.createBlock();
    return { l1, data: c.dataGasPrices, l2: c.l2GasPrices };
  }

  /** Aborts (rejects) a block and its descendants, starknet-devnet's devnet_abortBlocks; answers them newest first. */
  abortBlocks(id: BlockId): SealedBlock[] {
    return this.chain.rejectBlock(id).reverse();
  }

  /** The predeployed accounts with their balances at the pending state. */
  accountBalances(): { account: PredeployedAccount; wei: bigint; fri: bigint }[] {
    const state = this.chain.stateAt(this.chain.pending());
    const { eth, strk } = this.chain.config.feeTokens;
    return this.accounts.map((account) => ({ account, wei: balanceIn(state, eth, account.address), fri: balanceIn(state, strk, account.address) }));
  }
}
