/**
 * The explorer's first page from a warm start (issue 31: under 300 ms): a gateway serving the shipped mainnet and
 * starknet-mainnet, Debian's chromium (playwright-core), one navigation to warm the script, then N navigations of
 * `/explorer`, each timed by the browser: the page's first byte, its script's fetch, the first JSON-RPC answer,
 * first contentful paint and the first view drawn (`main[data-ms]`). Prints the medians and the load average.
 *
 *   npx tsx bench/explorer.ts [navigations=10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { start } from '../src/index.js';

const N = Number(process.argv[2] ?? 10);
const gw = await start({ port: 0, chains: ['chains/mainnet.json', 'chains/starknet-mainnet.json'] });
const profile = mkdtempSync(join(tmpdir(), 'devgate-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Nothing leaves 127.0.0.1; no request routing, which would turn the HTTP cache off.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  ],
});
const page = browser.pages()[0] ?? (await browser.newPage());
const url = `http://127.0.0.1:${gw.port}/explorer`;

declare const document: any, performance: any;
const rows: Record<string, number>[] = [];
for (let i = 0; i <= N; i++) {
  await page.goto(url);
  await page.waitForSelector('main[data-ms] [data-network="starknet-mainnet"]');
  const row = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource') as any[];
    const js = res.find((r) => r.name.endsWith('.js'));
    const rpc = res.filter((r) => r.initiatorType === 'fetch');
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      ttfb: nav.responseStart,
      htmlEnd: nav.responseEnd,
      jsStart: js?.startTime ?? -1,
      jsEnd: js?.responseEnd ?? -1,
      jsBytes: js?.transferSize ?? -1,
      domInteractive: nav.domInteractive,
      dcl: nav.domContentLoadedEventEnd,
      rpc1Start: rpc[0]?.startTime ?? -1,
      rpcLastEnd: Math.max(...rpc.map((r) => r.responseEnd)),
      rpcCount: rpc.length,
      fcp: fcp?.startTime ?? -1,
      drawn: Number(document.getElementById('main').dataset.ms),
    };
  });
  if (i > 0) rows.push(row);
}
const median = (k: string) => {
  const v = rows.map((r) => r[k]!).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)]!;
};
for (const k of Object.keys(rows[0]!))
  console.log(`${k.padEnd(15)} median ${median(k).toFixed(1).padStart(8)}  (${rows.map((r) => Math.round(r[k]!)).join(' ')})`);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await browser.close();
await gw.stop();
rmSync(profile, { recursive: true, force: true });
