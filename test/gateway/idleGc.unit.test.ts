/**
 * The idle GC's decision (idleGc.ts): collect only after two idle samples in a row and once the heap
 * has grown since the last idle GC, a few rounds at most per idle period while the heap keeps slack, and
 * never while busy; plus the real timer, which starts and stops without keeping the process alive.
 */
import { describe, expect, it } from 'vitest';
import { IdleGcPolicy, startIdleGc } from '../../src/gateway/idleGc.js';

const MB = 1e6;
const policy = () => new IdleGcPolicy({ sampleMs: 1000, idleUtilization: 0.02, growthBytes: 48 * MB, maxRounds: 3, slackBytes: 16 * MB });
const BUSY = 0.5;
const IDLE = 0.001;

describe('idle GC policy', () => {
  it('waits while busy, however large the heap', () => {
    const p = policy();
    expect(p.sample(BUSY, 80 * MB)).toBe('wait');
    for (let i = 0; i < 10; i++) expect(p.sample(BUSY, (200 + i) * MB)).toBe('wait');
  });

  it('collects on the second idle sample after the heap grew, then a few rounds while slack is left', () => {
    const p = policy();
    p.sample(IDLE, 80 * MB);
    p.sample(BUSY, 200 * MB);
    expect(p.sample(IDLE, 200 * MB)).toBe('wait');
    expect(p.sample(IDLE, 200 * MB)).toBe('collect');
    p.collected(200 * MB, 70 * MB);
    expect(p.sample(IDLE, 200 * MB)).toBe('collect');
    p.collected(150 * MB, 70 * MB);
    expect(p.sample(IDLE, 150 * MB)).toBe('collect');
    p.collected(110 * MB, 70 * MB);
    // Three rounds: done for this idle period.
    for (let i = 0; i < 5; i++) expect(p.sample(IDLE, 110 * MB)).toBe('wait');
  });

  it('ends the rounds when little slack is left, and needs new growth after the next busy period', () => {
    const p = policy();
    p.sample(IDLE, 80 * MB);
    p.sample(BUSY, 150 * MB);
    p.sample(IDLE, 150 * MB);
    expect(p.sample(IDLE, 150 * MB)).toBe('collect');
    p.collected(80 * MB, 70 * MB);
    expect(p.sample(IDLE, 80 * MB)).toBe('wait');
    expect(p.sample(IDLE, 80 * MB)).toBe('wait');
    // Busy, but the heap did not grow 48 MB beyond what the last round left: no collection.
    p.sample(BUSY, 120 * MB);
    p.sample(IDLE, 120 * MB);
    expect(p.sample(IDLE, 120 * MB)).toBe('wait');
    p.sample(BUSY, 140 * MB);
    p.sample(IDLE, 140 * MB);
    expect(p.sample(IDLE, 140 * MB)).toBe('collect');
  });

  it('collects in the first idle period after start, whatever the heap was when sampling began', () => {
    const p = policy();
    expect(p.sample(IDLE, 300 * MB)).toBe('wait');
    expect(p.sample(IDLE, 300 * MB)).toBe('collect');
    p.collected(200 * MB, 80 * MB);
    expect(p.sample(IDLE, 200 * MB)).toBe('collect');
  });

  it('a busy sample in between restarts the count of idle samples', () => {
    const p = policy();
    p.sample(IDLE, 50 * MB);
    expect(p.sample(IDLE, 120 * MB)).toBe('collect');
    p.collected(60 * MB, 55 * MB);
    p.sample(BUSY, 130 * MB);
    expect(p.sample(IDLE, 130 * MB)).toBe('wait');
    p.sample(BUSY, 130 * MB);
    expect(p.sample(IDLE, 130 * MB)).toBe('wait');
    expect(p.sample(IDLE, 130 * MB)).toBe('collect');
  });
});

describe('startIdleGc', () => {
  it('starts and stops, one timer shared by every user (unref-ed: it keeps no process alive)', async () => {
    const a = startIdleGc({ sampleMs: 5 });
    const b = startIdleGc({ sampleMs: 5 });
    a();
    a();
    await new Promise((resolve) => setTimeout(resolve, 30));
    b();
    b();
  });
});
