/**
 * eth_simulateV1's pooled VMs (simVms.ts), in-process: a VM serves request after request with the same answers as
 * a fresh one, a request that fails half-way (a checkpoint left open) gives its VM up instead of leaving its writes
 * to the next request, and concurrent requests each get a VM of their own.
 */
import { Address, hexToBytes } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { simulate } from '../../../../src/eth/engine/simulate/simulate.js';
import { idleVms } from '../../../../src/eth/engine/simulate/simVms.js';
import type { SimBlockResult, SimOptions } from '../../../../src/eth/engine/simulate/types.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, readSurfaceSeed } from '../../methods/seed.js';

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

const address = (hex: string) => new Address(hexToBytes(hex as `0x${string}`));
const SENDER = address('0x00000000000000000000000000000000000000d1');
const RECIPIENT = address('0x00000000000000000000000000000000000000d2');

/** Two blocks: an overridden sender pays a recipient, then the recipient pays on. */
const payments = (value: bigint): SimOptions => ({
  traceTransfers: true,
  validation: false,
  blocks: [
    { stateOverrides: [[SENDER, { balance: 10n ** 18n }]], calls: [{ from: SENDER, to: RECIPIENT, value }] },
    { calls: [{ from: RECIPIENT, to: address(ACCOUNT1), value: value / 2n }] },
  ],
});

const digest = (blocks: SimBlockResult[]) =>
  blocks.map((b) => ({
    hash: Buffer.from(b.mined.hash).toString('hex'),
    stateRoot: Buffer.from(b.mined.header.stateRoot).toString('hex'),
    calls: b.calls.map((c) => [c.status, c.gasUsed, c.logs.length]),
  }));

describe('simulation VMs', () => {
  it('are reused across requests with the answers of a first use', async () => {
    const base = chain.head();
    const first = digest(await simulate(chain, base, payments(1000n)));
    expect(idleVms(chain)).toBe(1);
    for (let i = 0; i < 3; i++) expect(digest(await simulate(chain, base, payments(1000n)))).toEqual(first);
    expect(idleVms(chain)).toBe(1);
    // Another request in between changes nothing for the next one.
    const other = digest(await simulate(chain, base, payments(7n)));
    expect(other[0]!.stateRoot).not.toBe(first[0]!.stateRoot);
    expect(digest(await simulate(chain, base, payments(1000n)))).toEqual(first);
  });

  it('a request that fails half-way leaves nothing to the next one', async () => {
    const base = chain.head();
    const before = digest(await simulate(chain, base, payments(1000n)));
    const idle = idleVms(chain);
    // The first call runs and writes, the second fails the request (-38014 with validation) inside the block.
    const failing: SimOptions = {
      traceTransfers: false,
      validation: true,
      blocks: [
        {
          stateOverrides: [[SENDER, { balance: 10n ** 18n }]],
          calls: [
            { from: address(ACCOUNT0), to: RECIPIENT, value: 5n, maxFeePerGas: 10n ** 11n },
            { from: RECIPIENT, to: SENDER, value: 10n ** 30n, maxFeePerGas: 10n ** 11n },
          ],
        },
      ],
    };
    await expect(simulate(chain, base, failing)).rejects.toMatchObject({ code: -38014 });
    expect(idleVms(chain)).toBe(idle - 1);
    expect(digest(await simulate(chain, base, payments(1000n)))).toEqual(before);
  });

  it('concurrent requests get VMs of their own and the same answers', async () => {
    const base = chain.head();
    const alone = digest(await simulate(chain, base, payments(1000n)));
    const together = await Promise.all(Array.from({ length: 4 }, () => simulate(chain, base, payments(1000n))));
    for (const blocks of together) expect(digest(blocks)).toEqual(alone);
    expect(idleVms(chain)).toBeGreaterThanOrEqual(1);
  });
});
