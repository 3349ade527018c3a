/**
 * L1 -> L2 messages: devnet_postmanSendMessageToL2 delivers one as an L1_HANDLER transaction (hash and
 * message hash as starknet.js computes them), starknet_getMessagesStatus follows it by L1 transaction.
 */
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { l1HandlerGas } from '../../../src/rollup/engine/fees.js';
import { rollupMethods } from '../../../src/rollup/methods/index.js';
import type { RollupChain } from '../../../src/rollup/engine/chain.js';
import { COUNTER, WEI_PRICE, testChain } from '../fixture.js';
import { SN_MAIN, hex, selector } from '../txs.js';

const methods = rollupMethods('starknet');
const ask = async (chain: RollupChain, method: string, params: unknown, rpcVersion?: '0.9'): Promise<any> =>
  methods.execute({ chain, networkName: 'rollup-test', rpcVersion }, { id: 1, method, params });
const L1_SENDER = '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419';
const L1_TX = '0x' + '5a'.repeat(32);
const message = (over: Record<string, unknown> = {}) => ({
  l2_contract_address: COUNTER,
  entry_point_selector: selector('on_l1_message'),
  l1_contract_address: L1_SENDER,
  payload: ['0x7', '0x8'],
  paid_fee_on_l1: hex(l1HandlerGas(2) * WEI_PRICE),
  nonce: '0x3',
  l1_transaction_hash: L1_TX,
  ...over,
});

describe('L1 -> L2 messages', () => {
  it('become L1_HANDLER transactions with the hashes starknet.js computes, followed by L1 transaction hash', async () => {
    const { chain } = testChain();
    const sent = (await ask(chain, 'devnet_postmanSendMessageToL2', message())).result;
    expect(sent.transaction_hash).toBe(hash.calculateL2MessageTxHash(L1_SENDER, COUNTER, selector('on_l1_message'), ['0x7', '0x8'], SN_MAIN, '0x3'));
    expect(BigInt(sent.message_hash)).toBe(BigInt(hash.getL2MessageHash(L1_SENDER, COUNTER, selector('on_l1_message'), ['0x7', '0x8'], '0x3')));
    expect((await ask(chain, 'starknet_getMessagesStatus', [L1_TX], '0.9')).result).toEqual([
      { transaction_hash: sent.transaction_hash, finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' },
    ]);
    const tx = (await ask(chain, 'starknet_getTransactionByHash', [sent.transaction_hash])).result;
    expect(tx).toEqual({
      transaction_hash: sent.transaction_hash,
      type: 'L1_HANDLER',
      version: '0x0',
      nonce: '0x3',
      contract_address: COUNTER,
      entry_point_selector: selector('on_l1_message'),
      calldata: [L1_SENDER, '0x7', '0x8'],
    });
    chain.createBlock();
    const receipt = (await ask(chain, 'starknet_getTransactionReceipt', [sent.transaction_hash])).result;
    expect(receipt).toMatchObject({
      type: 'L1_HANDLER',
      message_hash: sent.message_hash,
      actual_fee: { amount: hex(l1HandlerGas(2) * WEI_PRICE), unit: 'WEI' },
      finality_status: 'ACCEPTED_ON_L2',
    });
    expect(receipt.events).toEqual([{ from_address: COUNTER, keys: [selector('on_l1_message')], data: [L1_SENDER, '0x7', '0x8'] }]);
    expect((await ask(chain, 'starknet_getMessagesStatus', { transaction_hash: L1_TX })).result[0].finality_status).toBe('ACCEPTED_ON_L2');
    // the message's fee was paid on L1: no L2 balance or nonce changes
    const update = (await ask(chain, 'starknet_getStateUpdate', ['latest'])).result;
    expect(update.state_diff.nonces).toEqual([]);
    expect(update.state_diff.storage_diffs).toHaveLength(1);
  });

  it("answers 29 for an L1 transaction with no message, 20 for no target, 53 for a fee paid below the handler's", async () => {
    const { chain } = testChain();
    expect((await ask(chain, 'starknet_getMessagesStatus', [L1_TX])).error).toEqual({ code: 29, message: 'Transaction hash not found' });
    expect((await ask(chain, 'devnet_postmanSendMessageToL2', message({ l2_contract_address: '0x999' }))).error.code).toBe(20);
    expect((await ask(chain, 'devnet_postmanSendMessageToL2', message({ paid_fee_on_l1: '0x1' }))).error.code).toBe(53);
    expect((await ask(chain, 'devnet_postmanSendMessageToL2', message({ l1_contract_address: '0x' + '1'.repeat(41) }))).error.code).toBe(-32602);
    expect(chain.pending().transactions).toHaveLength(0);
  });
});
