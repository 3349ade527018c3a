/**
 * Issue 25: a key's secret is compared in constant time (crypto.timingSafeEqual over equal-length digests), not with
 * `===`, whose time tells a client how many leading characters it got right.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const compared: [number, number][] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([a.byteLength, b.byteLength]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { Policy } = await import('../../../src/gateway/policy/index.js');
const { ManualClock } = await import('../../../src/clock.js');
const { parseKeys } = await import('../../../src/gateway/policy/keys.js');

const basic = (secret: string) => `Basic ${Buffer.from(`:${secret}`).toString('base64')}`;

describe('key secrets', () => {
  beforeEach(() => void (compared.length = 0));
  const policy = new Policy(parseKeys({ keys: [{ key: 'k', plan: 'free', secret: 's3cret-of-some-length' }] }, 'x'), new ManualClock(0));

  it('are compared with timingSafeEqual over 32-byte digests, whatever the lengths given', () => {
    expect(policy.authenticate('k', basic('s3cret-of-some-length'))).toMatchObject({ ok: true, secretGiven: true });
    expect(policy.authenticate('k', basic('s'))).toEqual({ ok: false, reason: 'bad-secret' });
    expect(policy.authenticate('k', basic('s3cret-of-some-lengtX'))).toEqual({ ok: false, reason: 'bad-secret' });
    expect(policy.authenticate('k', basic('x'.repeat(1000)))).toEqual({ ok: false, reason: 'bad-secret' });
    expect(compared).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });

  it('a request without a secret is refused without a comparison', () => {
    expect(policy.authenticate('k', undefined)).toEqual({ ok: false, reason: 'bad-secret' });
    expect(compared).toEqual([]);
  });
});
