/** The hostile table's pure parts (bench/hostileReport.ts): percentiles, the probe's stall accounting, verdicts, tables. */
import { describe, expect, it } from 'vitest';
import {
  cell,
  hostileMarkdown,
  type HostileResults,
  percentile,
  probeVerdict,
  rssVerdict,
  scheduledLatencies,
  summarizeProbe,
} from '../../bench/hostileReport.js';

describe('hostile table figures', () => {
  it('takes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });

  it('counts a stall for every probe that was due during it, not once', () => {
    // Probes due every 10 ms; the third (due at 20) is answered at 520: the ones due at 30..510 waited behind it.
    const answers = [1, 11, 520, 521, 522];
    const latencies = scheduledLatencies(answers, 10, 525);
    expect(latencies.slice(0, 5)).toEqual([1, 1, 500, 491, 482]);
    // The probes still due by the end (due at 50..520) count as waiting until the end.
    expect(latencies.length).toBe(53);
    expect(latencies.at(-1)).toBe(5);
    const summary = summarizeProbe(latencies, []);
    expect(summary.maxMs).toBe(500);
    expect(summary.p99Ms).toBeGreaterThan(100);
  });

  it('counts an unanswered probe up to the end', () => {
    expect(scheduledLatencies([], 20, 30_000)[0]).toBe(30_000);
  });

  it('judges against p99 < 100 ms (no probe errors) and peak RSS < 1 GB', () => {
    const probe = (p99Ms: number, errors = 0) => ({ count: 10, p50Ms: 1, p99Ms, maxMs: p99Ms, errors });
    expect(probeVerdict({ status: 'ok', probe: probe(99.9) })).toBe('met');
    expect(probeVerdict({ status: 'ok', probe: probe(100) })).toBe('short');
    expect(probeVerdict({ status: 'ok', probe: probe(5, 3) })).toBe('short');
    expect(rssVerdict({ status: 'ok', peakRssMb: 1023 })).toBe('met');
    expect(rssVerdict({ status: 'ok', peakRssMb: 1024 })).toBe('short');
    expect(rssVerdict({ status: 'skipped (--no-anvil)' })).toBe('');
  });

  it('writes one Markdown row per server, outcomes flattened into their cell', () => {
    const r: HostileResults = {
      date: '2026-11-28T10:00:00.000Z',
      machine: { cpu: 'cpu', cores: 2, memoryGb: 24, node: 'v20', loadAverageAtStart: [1, 2, 3], loadAverageAtEnd: [4, 5, 6] },
      settings: { probeIntervalMs: 20, freezeSeconds: 30, attackSeconds: 120, rssCeilingMb: 3072, scale: 1 },
      attacks: [
        {
          id: 'mine',
          label: 'anvil_mine 10,000',
          devgate: {
            status: 'ok',
            probe: { count: 5, p50Ms: 1, p99Ms: 2500, maxMs: 2600, errors: 0 },
            rssBeforeMb: 90,
            peakRssMb: 1500,
            attackMs: 17800,
            outcome: 'refused: -32602 a | b\ncount',
          },
          anvil: { status: 'skipped (--no-anvil)' },
        },
      ],
    };
    const md = hostileMarkdown(r).split('\n');
    expect(md.filter((l) => l.startsWith('| anvil_mine'))).toEqual([
      '| anvil_mine 10,000 | devgate | 1.0 / 2,500.0 / 2,600.0 | short | 90 → 1,500 | short | 17.8 s: refused: -32602 a / b count |',
    ]);
    expect(md.at(-1)).toBe('|  | anvil | skipped (--no-anvil) |  |  |  |  |');
    expect(cell('x'.repeat(200), 10)).toHaveLength(10);
  });
});
