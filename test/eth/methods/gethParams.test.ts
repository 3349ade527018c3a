/**
 * The geth-exact parameter decoders (src/eth/gethParams.ts): the error texts of geth's hexutil / encoding/json for
 * a common.Hash and a map[common.Address][]common.Hash, and rpc.BlockNumber's `hex string without 0x prefix`.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../../src/errors.js';
import { gethBlockNumber, gethBlockNumberOrHash, gethHash, storageRequests } from '../../../src/eth/gethParams.js';

const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgument);
    return (err as Error).message;
  }
  throw new Error('no error');
};
const H = '0x' + 'ab'.repeat(32);

describe('geth-exact decoders', () => {
  it("a common.Hash: geth's texts for each way of being wrong", () => {
    expect(Buffer.from(gethHash(H)).toString('hex')).toBe('ab'.repeat(32));
    expect(Buffer.from(gethHash(H.toUpperCase().replace('0X', '0x'))).toString('hex')).toBe('ab'.repeat(32));
    const type = 'into Go value of type common.Hash';
    expect(errorOf(() => gethHash(7))).toBe(`json: cannot unmarshal non-string ${type}`);
    expect(errorOf(() => gethHash('ab'.repeat(32)))).toBe(`json: cannot unmarshal hex string without 0x prefix ${type}`);
    expect(errorOf(() => gethHash('0x' + 'a'.repeat(63)))).toBe(`json: cannot unmarshal hex string of odd length ${type}`);
    expect(errorOf(() => gethHash('0x12'))).toBe('hex string has length 2, want 64 for common.Hash');
    expect(errorOf(() => gethHash(''))).toBe('hex string has length 0, want 64 for common.Hash');
    expect(errorOf(() => gethHash('0x' + 'zz'.repeat(32)))).toBe(`json: cannot unmarshal invalid hex string ${type}`);
  });

  it('block parameters: a bare string that is no tag is `hex string without 0x prefix`, as geth', () => {
    expect(errorOf(() => gethBlockNumber('2'))).toBe('hex string without 0x prefix');
    expect(errorOf(() => gethBlockNumberOrHash('latests'))).toBe('hex string without 0x prefix');
    expect(gethBlockNumber('0x2')).toEqual({ number: 2n });
    expect(gethBlockNumber('safe')).toEqual({ tag: 'safe' });
    expect(gethBlockNumberOrHash(H)).toEqual({ hash: gethHash(H), requireCanonical: false });
  });

  it("storage requests: keys as geth's map (one entry per address, the last given), slots as hashes", () => {
    const a = '0x' + 'cd'.repeat(20);
    const req = storageRequests({ [a]: [H], [a.toUpperCase().replace('0X', '0x')]: [H, H] });
    expect([...req.keys()]).toEqual(['cd'.repeat(20)]);
    expect(req.get('cd'.repeat(20))!.slots).toHaveLength(2);
    expect(storageRequests(null).size).toBe(0);
    expect(storageRequests({ [a]: null }).get('cd'.repeat(20))!.slots).toEqual([]);
    expect(errorOf(() => storageRequests([a]))).toBe('json: cannot unmarshal array into Go value of type map[common.Address][]common.Hash');
    expect(errorOf(() => storageRequests('x'))).toBe('json: cannot unmarshal string into Go value of type map[common.Address][]common.Hash');
    expect(errorOf(() => storageRequests({ [a]: H }))).toBe('json: cannot unmarshal string into Go value of type []common.Hash');
    expect(errorOf(() => storageRequests({ cdcd: [H] }))).toBe('hex string without 0x prefix');
    expect(errorOf(() => storageRequests({ [a]: ['0x01'] }))).toBe('hex string has length 2, want 64 for common.Hash');
  });
});
