/**
 * The explorer in a real browser (issue 31): Debian's chromium driven by playwright-core, one browser and one gateway
 * (the shipped mainnet and starknet-mainnet). Every page shows the values the JSON-RPC answers for the shipped chains
 * and for transactions sent during the test with viem; the live view shows a new block, and a rollup block's move to
 * ACCEPTED_ON_L1 and another's to REJECTED (on its page and in the overview), without a reload. A screenshot of each page goes to test/explorer/screenshots/ (ignored by git).
 * The gateway has a keys file that does not list `devgate` (issue 31: the page could not read then). A second small
 * gateway ties a rollup to its eth network's blocks, for the rollup block's link to the eth block that accepted it;
 * that rollup's seed gives it its own method prefix (`paradex_`, not `starknet_`), and each of its pages and its live
 * view read it under that prefix.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createPublicClient, createWalletClient, http, type Abi } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { ALICE, testSeed } from '../rollup/fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`\n*** SKIPPED: the explorer's browser test needs Debian's chromium at ${CHROMIUM} (apt-get install chromium) ***\n`);

const SHOTS = join(import.meta.dirname, 'screenshots');
const abi = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../chains/contracts', `${name}.json`), 'utf8')).abi as Abi;
const ROLLUP = 'starknet-mainnet';
/** An artifact handed to devgate (`artifacts`), in no seed: a contract whose deposit(amount) logs Deposited(amount). */
const VAULT = join(import.meta.dirname, 'fixtures/out/Vault.sol/Vault.json');

// The page's globals, in the functions playwright runs in the browser.
declare const document: any, history: any, dispatchEvent: any, PopStateEvent: any;

let gw: Gateway;
let tied: Gateway;
let browser: BrowserContext;
let page: Page;
let profile: string;
let base: string;

/** Waits until the text of `[data-field=name]` matches, and answers it. */
async function field(name: string, expected: string | RegExp): Promise<string> {
  const locator = page.locator(`main [data-field="${name}"]`).first();
  // Each read gives up soon (null) when the field is not on the page, so the poll's own limit applies: a page that
  // shows something else (an error) fails here with what it shows, not by the test's timeout.
  const text = () => locator.textContent({ timeout: 500 }).catch(async () => `(no ${name}: ${await page.locator('main').textContent()})`);
  if (typeof expected === 'string') await expect.poll(text, { timeout: 10_000 }).toBe(expected);
  else await expect.poll(text, { timeout: 10_000 }).toMatch(expected);
  return (await locator.textContent())!;
}

async function open(path: string, shot: string): Promise<void> {
  const before = await page.evaluate(() => document.getElementById('main')?.dataset.rendered ?? '');
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((b) => (document.getElementById('main')?.dataset.rendered ?? '') !== b, before);
  await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
}

describe.skipIf(!HAS_CHROMIUM)('the explorer in chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'devgate-chromium-'));
    [gw, tied, browser] = await Promise.all([
      start({
        port: 0,
        chains: ['chains/mainnet.json', 'chains/starknet-mainnet.json'],
        keys: { open: false, keys: [{ key: 'test', plan: 'unlimited' }] },
        artifacts: [VAULT],
      }),
      start({ port: 0, chains: ['chains/sepolia.json', testSeed({ prefix: 'paradex', l1Acceptance: { kind: 'blocks', network: 'sepolia', blocks: 2 } })] }),
      // A fresh profile (--user-data-dir), which playwright takes as the persistent context's folder.
      chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        viewport: { width: 1400, height: 900 },
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          // Nothing leaves 127.0.0.1 (the page's CSP allows nothing else either); no request routing, which would turn
          // the HTTP cache off and so hide what a warm load costs.
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        ],
      }),
    ]);
    base = `http://127.0.0.1:${gw.port}`;
    page = browser.pages()[0] ?? (await browser.newPage());
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([gw?.stop(), tied?.stop()]);
    rmSync(profile, { recursive: true, force: true });
  });

  it('shows every page with the chains values, live, and the dashboard behind the token', async () => {
    const client = createPublicClient({ transport: http(gw.url('mainnet', 'test')) });
    const head = await client.getBlockNumber();
    const rollupHead = gw.rollup(ROLLUP).blockNumber();

    // The bare address with Accept: text/html is the explorer; a warm load (the script built and cached once) is timed.
    await page.goto(`${base}/`);
    await page.waitForSelector('main [data-network="mainnet"]');
    await page.goto(`${base}/explorer`);
    await page.waitForSelector(`main[data-ms] [data-network="${ROLLUP}"]`);
    // What the first view waits for, as the browser saw it: the page's HTML only. Its script and style come from the
    // cache, and it is drawn from the data in the page, before any request of its own (load-independent checks).
    const first = await page.evaluate(() => {
      const p = (globalThis as any).performance;
      const drawn = Number(document.getElementById('main').dataset.ms);
      const res = p.getEntriesByType('resource') as any[];
      return {
        drawn,
        fcp: p.getEntriesByName('first-contentful-paint')[0]?.startTime,
        html: p.getEntriesByType('navigation')[0].responseEnd,
        cached: res.filter((r) => /\/assets\/app-/.test(r.name)).map((r) => r.transferSize),
        before: res.filter((r) => r.initiatorType === 'fetch' && r.startTime < drawn).map((r) => r.name),
      };
    });
    console.log(
      `explorer: first page drawn ${first.drawn} ms after navigation (warm; page received at ${Math.round(first.html)} ms, first paint ${Math.round(first.fcp)} ms), load average ${loadavg()[0]!.toFixed(1)}`,
    );
    expect(first.cached).toEqual([0, 0]);
    expect(first.before).toEqual([]);
    expect(await page.locator('main [data-network="mainnet"] [data-field="head"]').textContent()).toBe(String(head));
    expect(await page.locator(`main [data-network="${ROLLUP}"] [data-field="head"]`).textContent()).toBe(String(rollupHead));
    await page.waitForFunction(() => document.getElementById('live')?.dataset.open === '2');
    await page.screenshot({ path: join(SHOTS, 'home.png'), fullPage: true });

    // A transaction sent now (viem, the dev account 0): the live view shows its block without a reload.
    const [from] = await createWalletClient({ transport: http(gw.url('mainnet', 'test')) }).getAddresses();
    const deploy = (await client.getBlock({ blockNumber: 1n, includeTransactions: true })).transactions;
    const [token, , reverter] = await Promise.all([0, 1, 2].map(async (i) => (await client.getTransactionReceipt({ hash: deploy[i]!.hash })).contractAddress!));
    const wallet = createWalletClient({ account: from!, chain: mainnet, transport: http(gw.url('mainnet', 'test')) });
    const to = '0x00000000000000000000000000000000000000b1';
    const sentAt = Date.now();
    const hash = await wallet.writeContract({ address: token!, abi: abi('Token'), functionName: 'transfer', args: [to, 1234n] });
    const answeredAt = Date.now();
    await page.waitForFunction((n) => document.querySelector('main [data-network="mainnet"] [data-field="head"]')?.textContent === n, String(head + 1n));
    const shownAt = Date.now();
    // The issue asks for 200 ms; the bound here leaves room for a machine shared by many (75 ms at load 15).
    expect(shownAt - answeredAt).toBeLessThan(1000);
    console.log(
      `explorer: new block shown ${shownAt - answeredAt} ms after eth_sendTransaction answered (automine), ${shownAt - sentAt} ms after the send began`,
    );

    // The transaction page: status, value, fee, input and logs decoded with the shipped Token ABI, call tree, state diff.
    const receipt = await client.getTransactionReceipt({ hash });
    await open(`/explorer/mainnet/tx/${hash}`, 'tx');
    await field('status', 'success');
    await field('method', 'Token.transfer');
    await field('block', String(receipt.blockNumber));
    expect(await page.locator('main table.args').textContent()).toContain('1234');
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await field('fee', /ETH$/)).toBe(`${formatUnits(fee)} ETH`);
    expect(await page.locator('main').textContent()).toMatch(/Token\.Transfer.*value=1234/);
    expect(await page.locator('main [data-field="calls"]').textContent()).toContain('Token.transfer');
    expect(await page.locator('main table.diff tbody tr').count()).toBeGreaterThan(2);

    // A reverted transaction: its call tree names the revert reason.
    const bad = await wallet.writeContract({ address: reverter!, abi: abi('Reverter'), functionName: 'revertWithReason', gas: 200_000n });
    await open(`/explorer/mainnet/tx/${bad}`, 'tx-reverted');
    await field('status', 'reverted');
    await field('method', 'Reverter.revertWithReason');
    await field('revert', /Reverter: always reverts/);

    // A contract of an artifact handed to devgate, deployed and called now: its input and log decoded with that ABI.
    const vault = JSON.parse(readFileSync(VAULT, 'utf8')) as { abi: Abi; bytecode: { object: `0x${string}` } };
    const created = await wallet.deployContract({ abi: vault.abi, bytecode: vault.bytecode.object });
    const vaultAt = (await client.getTransactionReceipt({ hash: created })).contractAddress!;
    const deposit = await wallet.writeContract({ address: vaultAt, abi: vault.abi, functionName: 'deposit', args: [777n] });
    await open(`/explorer/mainnet/tx/${deposit}`, 'tx-given-artifact');
    await field('method', 'Vault.deposit');
    expect(await page.locator('main table.args').textContent()).toContain('777');
    expect(await page.locator('main').textContent()).toMatch(/Vault\.Deposited.*amount=777/);

    // The block page.
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    await open(`/explorer/mainnet/block/${block.number}`, 'block');
    await field('hash', block.hash!);
    await field('txCount', String(block.transactions.length));
    await field('gasUsed', `${block.gasUsed} of ${block.gasLimit}`);
    await field('baseFee', `${formatUnits(block.baseFeePerGas!, 9)} gwei`);
    await open(`/explorer/mainnet/block/${block.hash}`, 'block-by-hash');
    await field('number', String(block.number));

    // The address page: balance, nonce, code, its transactions, the storage slots its transactions wrote.
    await open(`/explorer/mainnet/address/${token}`, 'address');
    await field('balance', `${formatUnits(await client.getBalance({ address: token! }))} ETH`);
    await field('code', /bytes$/);
    expect(await page.locator('main a[data-field="tx"]').count()).toBeGreaterThan(0);
    // The storage slots its transactions wrote, with their values now: the recipient's balance of 1234 among them.
    expect(await page.locator('main').textContent()).toContain(`0x${(1234).toString(16).padStart(64, '0')}`);
    const sender = await client.getTransactionCount({ address: from! });
    await open(`/explorer/mainnet/address/${from}`, 'address-account');
    await field('nonce', String(sender));

    // The search box takes a transaction hash.
    await page.fill('#search input', hash);
    await page.press('#search input', 'Enter');
    await page.waitForURL(`**/explorer/mainnet/tx/${hash}`);
    await field('hash', hash);
    // ... a block number (on the network in view), an address.
    await page.fill('#search input', '1');
    await page.press('#search input', 'Enter');
    await page.waitForURL('**/explorer/mainnet/block/1');
    await field('number', '1');
    await page.fill('#search input', token!);
    await page.press('#search input', 'Enter');
    await page.waitForURL(`**/explorer/mainnet/address/${token!.toLowerCase()}`);
    await field('code', /bytes$/);

    // The rollup: a block page whose status moves to ACCEPTED_ON_L1 live, and a transaction page.
    const latest = gw.rollup(ROLLUP).blockNumber();
    await open(`/explorer/${ROLLUP}/block/${latest}`, 'rollup-block');
    await field('blockStatus', 'ACCEPTED_ON_L2');
    const rollupTx = (await page.locator('main a[data-field="tx"]').first().getAttribute('href'))!;
    const acceptedAt = Date.now();
    gw.rollup(ROLLUP).acceptOnL1({ number: latest });
    await field('blockStatus', 'ACCEPTED_ON_L1');
    expect(Date.now() - acceptedAt).toBeLessThan(1000);
    console.log(`explorer: rollup status change shown ${Date.now() - acceptedAt} ms after acceptOnL1`);
    await open(rollupTx, 'rollup-tx');
    await field('finality', 'ACCEPTED_ON_L1');
    await field('execution', 'SUCCEEDED');
    await open(`/explorer/${ROLLUP}`, 'rollup');
    const sealed = gw.rollup(ROLLUP).createBlock();
    await page.waitForFunction((n) => document.querySelector('main [data-field="head"]')?.textContent === n, String(sealed.number));

    // The gateway dashboard: the token typed once; the test's key shows with its methods (the explorer's reads are no key's).
    await open('/explorer/gateway', 'gateway-locked');
    await page.fill('#admin-token', gw.adminToken);
    await page.press('#admin-token', 'Enter');
    await page.waitForSelector('main table.keys');
    expect(await page.locator('main table.keys [data-field="key"]').allTextContents()).toContain('test');
    expect(await page.locator('main table.methods').textContent()).toContain('eth_getBlockByNumber');
    // Live: a key over its rate (429) and an outage appear without a reload (the page polls each second).
    gw.policy.setKey({ key: 'tight', plan: 'free', limits: { creditsPerSecond: 100 } });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    const sends = Array.from({ length: 10 }, () =>
      fetch(gw.url('mainnet', 'tight'), { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    expect((await Promise.all(sends)).map((r) => r.status)).toContain(429);
    gw.policy.setOutage(ROLLUP, { durationMs: 60_000 });
    await expect.poll(() => page.locator('main table.keys tr', { hasText: 'tight' }).textContent(), { timeout: 5000 }).toMatch(/rate [1-9]/);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 5000 }).toContain('under way');
    expect(await page.locator('main table.keys tr', { hasText: 'tight' }).textContent()).toContain(String(3_000_000 - 80));
    await page.screenshot({ path: join(SHOTS, 'gateway.png'), fullPage: true });
    gw.policy.clearOutage(ROLLUP);

    // The pending pool, live: a transaction sent while sepolia mines by hand shows in it without a reload.
    const sepolia = tied.eth('sepolia');
    sepolia.setAutomine(false);
    await page.goto(`http://127.0.0.1:${tied.port}/explorer`);
    await page.waitForFunction(() => document.getElementById('live')?.dataset.open === '2');
    const sepoliaWallet = createWalletClient({ transport: http(tied.url('sepolia')) });
    const [dev] = await sepoliaWallet.getAddresses();
    // The seed leaves some in the pool already.
    const inPool = Number(/^(\d+) pending/.exec(await field('pool', /pending/))![1]);
    const pooled = await sepoliaWallet.sendTransaction({ account: dev!, to, value: 1n, chain: null });
    await field('pool', `${inPool + 1} pending, 0 queued`);
    expect(await page.locator(`main a[href="/explorer/sepolia/tx/${pooled}"]`).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'pending-pool.png'), fullPage: true });
    sepolia.setAutomine(true);
    await sepolia.mine();
    // Mined: out of the pool, into the latest transactions.
    await expect.poll(() => page.locator('main [data-field="pool"]').first().textContent(), { timeout: 10_000 }).not.toBe(`${inPool + 1} pending, 0 queued`);
    expect(await page.locator(`main a[href="/explorer/sepolia/tx/${pooled}"]`).count()).toBe(1);

    // A rollup whose seed names its methods `paradex_` (it serves no `starknet_` method): its overview, live, then
    // its transaction, address and block pages, all read under that prefix.
    const tiedRollup = tied.rollup('rollup-test');
    const minted = tiedRollup.mint(BigInt(ALICE.address), 5n * 10n ** 18n, 'WEI');
    await page.goto(`http://127.0.0.1:${tied.port}/explorer/rollup-test`);
    await field('head', String(tiedRollup.blockNumber()));
    expect(await page.locator('main [data-network="rollup-test"] tbody tr').count()).toBeGreaterThan(1);
    await page.waitForFunction(() => document.getElementById('live')?.dataset.open === '2');
    await page.screenshot({ path: join(SHOTS, 'prefix-rollup.png'), fullPage: true });
    const { number } = tiedRollup.createBlock();
    await field('head', String(number));
    await open(`/explorer/rollup-test/tx/0x${minted.txHash.toString(16)}`, 'prefix-rollup-tx');
    await field('execution', 'SUCCEEDED');
    await field('finality', 'ACCEPTED_ON_L2');
    expect(BigInt(await field('hash', /^0x/))).toBe(minted.txHash);
    await open(`/explorer/rollup-test/address/${ALICE.address}`, 'prefix-rollup-address');
    await field('nonce', '0');
    await field('classHash', /^0x[0-9a-f]+$/);

    // That rollup is tied to its eth network's blocks: its block links the eth block that accepted it on L1.
    await open(`/explorer/rollup-test/block/${number}`, 'prefix-rollup-block');
    await field('blockStatus', 'ACCEPTED_ON_L2');
    await field('l1Block', 'not yet');
    const anchor = tied.eth('sepolia').blockNumber();
    await tied.eth('sepolia').mine({ blocks: 2 });
    await field('blockStatus', 'ACCEPTED_ON_L1');
    await field('l1Block', `sepolia block ${anchor + 2n}`);
    await page.screenshot({ path: join(SHOTS, 'rollup-l1.png'), fullPage: true });
    await page.locator('main [data-field="l1Block"] a').click();
    await field('number', String(anchor + 2n));
  });

  it('shows a rollup block turning REJECTED live, on its page and in the overview', async () => {
    const rollup = gw.rollup(ROLLUP);
    await page.goto(`${base}/explorer/${ROLLUP}`);
    await page.waitForFunction(() => document.getElementById('live')?.dataset.open === '2');
    // A block with a transaction (a mint), its page opened by number: rejected, its number names no block any more
    // (the chain continues from its parent); the page keeps showing that block, REJECTED, without a reload.
    rollup.mint(BigInt(ALICE.address), 10n ** 18n, 'WEI');
    const doomed = rollup.createBlock();
    await open(`/explorer/${ROLLUP}/block/${doomed.number}`, 'rollup-block-before-reject');
    await field('blockStatus', 'ACCEPTED_ON_L2');
    expect(BigInt(await field('hash', /^0x/))).toBe(doomed.hash);
    const rejectedAt = Date.now();
    rollup.rejectBlock({ number: doomed.number });
    await field('blockStatus', 'REJECTED');
    const onPage = Date.now() - rejectedAt;
    expect(BigInt(await field('hash', /^0x/))).toBe(doomed.hash);
    await page.screenshot({ path: join(SHOTS, 'rollup-block-rejected.png'), fullPage: true });
    // Its transaction's page: REJECTED (the node serves no body or receipt of it any more).
    const rejectedTx = (await page.locator('main a[data-field="tx"]').first().getAttribute('href'))!;
    await open(rejectedTx, 'rollup-tx-rejected');
    await field('finality', 'REJECTED');

    // The overview: a block sealed on the parent (reusing the number), rejected while in view: it shows as a REJECTED
    // row beside the earlier rejected one (which the page heard of on the block page), the head back below them.
    await open(`/explorer/${ROLLUP}`, 'rollup-before-reject');
    const statuses = page.locator(`main [data-network="${ROLLUP}"] tbody [data-field="status"]`);
    const again = rollup.createBlock();
    expect(again.number).toBe(doomed.number);
    await field('head', String(again.number));
    expect(await statuses.allTextContents()).toContain('REJECTED');
    const rejectedAgainAt = Date.now();
    rollup.rejectBlock({ number: again.number });
    await page.waitForFunction(
      ([net, head]) =>
        document.querySelector(`main [data-network="${net}"] [data-field="head"]`)?.textContent === head &&
        [...document.querySelectorAll(`main [data-network="${net}"] tbody [data-field="status"]`)].filter((e: any) => e.textContent === 'REJECTED').length ===
          2,
      [ROLLUP, String(again.number - 1n)] as const,
    );
    const inOverview = Date.now() - rejectedAgainAt;
    // The issue asks for 200 ms; the bound leaves room for a machine shared by many.
    expect(onPage).toBeLessThan(1000);
    expect(inOverview).toBeLessThan(1000);
    console.log(
      `explorer: REJECTED shown ${onPage} ms after rejectBlock on the block's page, ${inOverview} ms in the overview (load average ${loadavg()[0]!.toFixed(1)})`,
    );
    await page.screenshot({ path: join(SHOTS, 'rollup-rejected.png'), fullPage: true });
    // The rejected row links the rejected block by its hash (its number names another block, or none).
    await page.locator(`main [data-network="${ROLLUP}"] tbody tr`, { hasText: 'REJECTED' }).first().locator('a').first().click();
    await field('blockStatus', 'REJECTED');
    expect(BigInt(await field('hash', /^0x/))).toBe(again.hash);
  });
});

function formatUnits(wei: bigint, decimals = 18): string {
  const base = 10n ** BigInt(decimals);
  const frac = (wei % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${wei / base}${frac === '' ? '' : `.${frac}`}`;
}
