/** applyStateOverride on a stock VM: fields written in address order, storage replaced or patched, precompiles moved and put back. */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { ExecutionFailed } from '../../../../src/errors.js';
import { applyStateOverride, overrideHeader } from '../../../../src/eth/engine/exec/overrides.js';

const A = createAddressFromString('0x00000000000000000000000000000000000000a1');
const ID = createAddressFromString('0x0000000000000000000000000000000000000004');
const slot = (n: number) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

async function vm() {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
  const v = await createVM({ common, stateManager: new MerkleStateManager({ common }) });
  await v.stateManager.putAccount(A, new Account(1n, 2n));
  await v.stateManager.putStorage(A, slot(1), Uint8Array.from([7]));
  await v.stateManager.putStorage(A, slot(2), Uint8Array.from([8]));
  return v;
}

describe('applyStateOverride', () => {
  it('writes nonce, balance and code; state replaces the storage, stateDiff patches it', async () => {
    const v = await vm();
    await applyStateOverride(v, [[A, { nonce: 9n, balance: 10n, code: Uint8Array.from([0x00]), stateDiff: [[slot(2), slot(5)]] }]]);
    const acc = await v.stateManager.getAccount(A);
    expect([acc!.nonce, acc!.balance]).toEqual([9n, 10n]);
    expect(bytesToHex(await v.stateManager.getCode(A))).toBe('0x00');
    expect(bytesToHex(await v.stateManager.getStorage(A, slot(1)))).toBe('0x07');
    expect(bytesToHex(await v.stateManager.getStorage(A, slot(2)))).toBe('0x05');
    await applyStateOverride(v, [[A, { state: [[slot(3), slot(6)]] }]]);
    expect(bytesToHex(await v.stateManager.getStorage(A, slot(1)))).toBe('0x');
    expect(bytesToHex(await v.stateManager.getStorage(A, slot(3)))).toBe('0x06');
  });

  it('moves a precompile for the run and puts it back; refuses what geth refuses', async () => {
    const v = await vm();
    const stock = v.evm.precompiles;
    const restore = await applyStateOverride(v, [[ID, { movePrecompileToAddress: A }]]);
    expect(v.evm.getPrecompile!(A)).toBe(stock.get('0000000000000000000000000000000000000004'));
    expect(v.evm.getPrecompile!(ID)).toBeUndefined();
    restore();
    expect(v.evm.precompiles).toBe(stock);
    await expect(applyStateOverride(v, [[A, { movePrecompileToAddress: ID }]])).rejects.toThrow(
      new ExecutionFailed('account 0x00000000000000000000000000000000000000A1 is not a precompile'),
    );
    await expect(applyStateOverride(v, [[A, { state: [], stateDiff: [] }]])).rejects.toThrow("has both 'state' and 'stateDiff'");
    await expect(
      applyStateOverride(v, [
        [ID, { movePrecompileToAddress: A }],
        [A, { balance: 1n }],
      ]),
    ).rejects.toThrow('is already overridden');
    // A failed override leaves the precompiles as they were.
    expect(v.evm.precompiles).toBe(stock);
    await expect(applyStateOverride(v, [[ID, { movePrecompileToAddress: A }]], { precompiles: false })).rejects.toThrow('is not a precompile');
  });

  it('overrideHeader views the header with the block override (the header itself unchanged)', async () => {
    const header = { number: 1n, timestamp: 2n, gasLimit: 3n, baseFeePerGas: 4n, getBlobGasPrice: () => 1n } as never;
    const seen = overrideHeader(header, { number: 10n, time: 20n, blobBaseFee: 7n }) as any;
    expect([seen.number, seen.timestamp, seen.gasLimit, seen.baseFeePerGas, seen.getBlobGasPrice()]).toEqual([10n, 20n, 3n, 4n, 7n]);
    expect((header as any).number).toBe(1n);
  });
});
