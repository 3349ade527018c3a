/** The precompile swap of the EVM fence (evm/precompiles.ts) on a stock @ethereumjs EVM: moves, removals, restore. */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { swapPrecompiles } from '../../../../src/eth/engine/evm/precompiles.js';

describe('swapPrecompiles', () => {
  it('moves and removes precompiles for a run, as getPrecompile and runCall see them, and restores the stock map', async () => {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
    const stock = evm.precompiles;
    const identity = '0000000000000000000000000000000000000004';
    const target = '00000000000000000000000000000000000000c2';
    const swap = swapPrecompiles(evm);
    swap.set(target, swap.get(identity)!);
    swap.delete(identity);
    expect(evm.getPrecompile(createAddressFromString('0x' + target))).toBe(stock.get(identity));
    expect(evm.getPrecompile(createAddressFromString('0x' + identity))).toBeUndefined();
    const data = Uint8Array.from([1, 2, 3]);
    const moved = await evm.runCall({ to: createAddressFromString('0x' + target), data, gasLimit: 100_000n });
    expect([...moved.execResult.returnValue]).toEqual([1, 2, 3]);
    const gone = await evm.runCall({ to: createAddressFromString('0x' + identity), data, gasLimit: 100_000n });
    expect(gone.execResult.returnValue.length).toBe(0);
    // The stock map itself was never written.
    expect(stock.has(identity)).toBe(true);
    expect(stock.has(target)).toBe(false);
    swap.restore();
    expect(evm.precompiles).toBe(stock);
    const back = await evm.runCall({ to: createAddressFromString('0x' + identity), data, gasLimit: 100_000n });
    expect([...back.execResult.returnValue]).toEqual([1, 2, 3]);
  });
});
