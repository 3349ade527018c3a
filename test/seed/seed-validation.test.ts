/** Seed validation: schema errors name the field's path; invalid seeded transactions name block, tx and reason. */
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import { parseSeed, SeedError } from '../../src/seed/load.js';

const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const base = { name: 'v', kind: 'eth', chainId: 9 };

function schemaError(seed: object): string {
  try {
    parseSeed({ ...base, ...seed }, 'test');
  } catch (err) {
    expect(err).toBeInstanceOf(SeedError);
    return (err as Error).message;
  }
  throw new Error('seed was accepted');
}

async function loadError(seed: object): Promise<string> {
  const loaded = parseSeed({ ...base, ...seed }, 'test');
  try {
    await chainFromSeed(loaded);
  } catch (err) {
    expect(err).toBeInstanceOf(SeedError);
    return (err as Error).message;
  }
  throw new Error('seed loaded');
}

const blocksWith = (tx: object, index = 1) => ({
  blocks: [{}, {}, {}, { transactions: Array.from({ length: index + 1 }, (_, i) => (i === index ? tx : { to: A(1) })) }],
});

describe('seed schema errors name the path', () => {
  it('a bad `to` in blocks[3].transactions[1]', () => {
    expect(schemaError(blocksWith({ to: '0x1234' }))).toContain('blocks[3].transactions[1].to: not a 20-byte address');
  });

  it('top-level, genesis, alloc and pending fields', () => {
    expect(schemaError({ chainId: -1 })).toMatch(/^invalid seed test:\nchainId: /m);
    expect(schemaError({ hardfork: 'frontier2' })).toContain('hardfork: ');
    expect(schemaError({ genesis: { gasLimit: 'lots' } })).toContain('genesis.gasLimit: ');
    expect(schemaError({ genesis: { timestampp: 1 } })).toContain('genesis: ');
    expect(schemaError({ alloc: { [A(1)]: { code: '0x123' } } })).toContain(`alloc.${A(1)}.code: not 0x-prefixed hex bytes`);
    expect(schemaError({ alloc: { '0xnothex': {} } })).toContain('alloc.0xnothex: ');
    expect(schemaError({ pending: [{ to: A(1) }, { value: 'much' }] })).toContain('pending[1].value: not a hex or decimal quantity');
    expect(schemaError({ blockz: [] })).toMatch(/blockz/);
  });

  it('transaction fields: from, type, raw exclusivity, access lists', () => {
    expect(schemaError(blocksWith({ from: 'alice' }, 0))).toContain('blocks[3].transactions[0].from: not a dev account index or a 20-byte address');
    expect(schemaError(blocksWith({ to: A(1), type: 3 }, 0))).toContain('blocks[3].transactions[0].type: ');
    expect(schemaError(blocksWith({ raw: '0x01', to: A(1) }, 0))).toContain('blocks[3].transactions[0].to: a raw transaction takes no other fields');
    expect(schemaError(blocksWith({ to: A(1), accessList: [{ address: A(2), storageKeys: ['0x01'] }] }, 0))).toContain(
      'blocks[3].transactions[0].accessList[0].storageKeys[0]: not a 32-byte hex value',
    );
    expect(schemaError(blocksWith({ function: 'f()' }, 0))).toContain('blocks[3].transactions[0].to: a function call needs `to`');
  });
});

describe('invalid seeded transactions fail the load with block index, tx index and reason', () => {
  it('a nonce that is not the next one', async () => {
    expect(await loadError(blocksWith({ to: A(1), nonce: 5 }))).toMatch(/blocks\[3\]\.transactions\[1\]: .*nonce/i);
  });

  it('not enough funds', async () => {
    expect(await loadError(blocksWith({ from: 2, to: A(1), value: '100000000000000000000000' }))).toMatch(/blocks\[3\]\.transactions\[1\]: .*(balance|funds)/i);
  });

  it('a fee under the base fee', async () => {
    expect(await loadError(blocksWith({ to: A(1), maxFeePerGas: 5, maxPriorityFeePerGas: 1 }))).toMatch(/blocks\[3\]\.transactions\[1\]: .*base ?fee/i);
  });

  it('gas under the intrinsic gas, without the library dump of the block', async () => {
    const msg = await loadError(blocksWith({ to: A(1), gas: 20000 }));
    expect(msg).toMatch(/blocks\[3\]\.transactions\[1\]: .*21000/);
    expect(msg).not.toContain('hash=');
  });

  it('senders without a key, labels not yet created, artifacts and functions that do not exist', async () => {
    expect(await loadError(blocksWith({ from: 12, to: A(1) }))).toContain('blocks[3].transactions[1]: from: there is no dev account 12');
    expect(await loadError(blocksWith({ from: A(7), to: A(1) }))).toContain(`from: ${A(7)} is not a dev account`);
    expect(await loadError(blocksWith({ to: '@nothing' }))).toContain('blocks[3].transactions[1]: to: no contract labelled @nothing');
    expect(await loadError(blocksWith({ artifact: 'NoSuchContract' }))).toContain('blocks[3].transactions[1]: no artifact NoSuchContract.json');
    expect(await loadError(blocksWith({ to: A(1), artifact: 'Token', function: 'steal', args: [] }))).toContain(
      'function: Token has no function(s) named steal',
    );
    expect(await loadError(blocksWith({ to: A(1), function: 'transfer(address,uint256)', args: [A(2)] }))).toContain('args: expected 2 argument(s), got 1');
    expect(await loadError(blocksWith({ to: A(1), function: 'transfer(address,uint256)', args: [A(2), 'ten'] }))).toContain(
      'args[1]: expected an integer for uint256',
    );
  });

  it('fields of another transaction type', async () => {
    expect(await loadError(blocksWith({ to: A(1), type: 0, maxFeePerGas: 10 ** 10 }))).toContain('maxFeePerGas: not a field of type 0');
    expect(await loadError(blocksWith({ to: A(1), type: 2, gasPrice: 10 ** 10 }))).toContain('gasPrice: not a field of type 2');
    expect(await loadError({ hardfork: 'istanbul', ...blocksWith({ to: A(1), type: 2 }) })).toContain('type: type 2 transactions need london');
  });

  it('timestamps that do not increase, bad mnemonics, and pending transactions that cannot apply', async () => {
    expect(await loadError({ genesis: { timestamp: 100 }, blocks: [{ timestamp: 100 }] })).toContain('blocks[0].timestamp: 100 is not after');
    expect(await loadError({ accounts: { mnemonic: 'not a real mnemonic at all' } })).toContain('accounts.mnemonic: not a valid BIP-39');
    expect(await loadError({ pending: [{ to: A(1) }, { to: A(1), nonce: 9 }] })).toContain('pending[1]: does not apply');
  });
});
