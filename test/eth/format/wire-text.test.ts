/**
 * The JSON text cached per mined block (blocks in both forms, transactions, receipts, a block's receipts)
 * is byte for byte what JSON.stringify makes of the freshly formatted objects, and the same text on
 * every call; the response writer splices it in exactly where JSON.stringify would put the object.
 */
import { describe, expect, it } from 'vitest';
import { formatBlock, minedBlockJson } from '../../../src/eth/format/block.js';
import { blockReceiptsJson, formatBlockReceipts, formatReceipt, receiptJson } from '../../../src/eth/format/receipt.js';
import { formatTransaction, minedPlacement, minedTransactionJson } from '../../../src/eth/format/transaction.js';
import { responseText, success, type RpcResponse } from '../../../src/rpc/envelope.js';
import { RawJson } from '../../../src/rpc/rawJson.js';
import { minedBlock, pragueCommon } from './fixtures.js';

const mined = await minedBlock(pragueCommon());

describe('cached wire text', () => {
  it('of a block, in both forms, is JSON.stringify of the uncached object, made once', () => {
    for (const fullTransactions of [false, true]) {
      const cached = minedBlockJson(mined, fullTransactions);
      expect(cached.text).toBe(JSON.stringify(formatBlock(mined, { fullTransactions })));
      expect(minedBlockJson(mined, fullTransactions).text).toBe(cached.text);
    }
    expect(minedBlockJson(mined, true).text).not.toBe(minedBlockJson(mined, false).text);
  });

  it('of each transaction and receipt, and of the block receipts list', () => {
    const txs = mined.block.transactions;
    expect(txs.length).toBeGreaterThan(1);
    txs.forEach((tx, i) => {
      expect(minedTransactionJson(mined, i).text).toBe(JSON.stringify(formatTransaction(tx, mined.senders[i]!, minedPlacement(mined, i))));
      expect(receiptJson(mined, i).text).toBe(JSON.stringify(formatReceipt(mined, i)));
    });
    expect(blockReceiptsJson(mined).text).toBe(JSON.stringify(formatBlockReceipts(mined)));
    expect(blockReceiptsJson(mined).text).toBe(blockReceiptsJson(mined).text);
  });

  it('is spliced into responses and batches exactly as JSON.stringify writes the object', () => {
    const object = formatBlock(mined, { fullTransactions: true });
    const raw = minedBlockJson(mined, true);
    for (const id of [1, 0, -2.5, 1e21, 'a"b\\c\u2028', null]) {
      expect(responseText(success(id, raw))).toBe(JSON.stringify(success(id, object)));
    }
    const mixed: RpcResponse[] = [
      success(1, raw),
      success('x', '0x1'),
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } },
      success(3, null),
      success(4, receiptJson(mined, 0)),
    ];
    const plain = mixed.map((r) => ('result' in r && r.result instanceof RawJson ? { ...r, result: JSON.parse(r.result.text) } : r));
    expect(responseText(mixed)).toBe(JSON.stringify(plain));
    expect(responseText([])).toBe('[]');
  });

  it('turns back into the same JSON where it is stringified as a value', () => {
    expect(JSON.stringify({ r: receiptJson(mined, 1) })).toBe(JSON.stringify({ r: formatReceipt(mined, 1) }));
  });
});
