/**
 * The explorer's routes and its guard (issue 31), over plain HTTP: a browser's GET of `/` (Accept: text/html) or
 * `/explorer...` gets the page; JSON-RPC POSTs and WebSocket upgrades at the same addresses are untouched; the page's
 * data answers no other site (no CORS headers, Cross-Origin-Resource-Policy, Sec-Fetch-Site), no foreign Host (DNS
 * rebinding), and the gateway dashboard's data nobody without the admin token, nor any Origin but its own;
 * `explorer: false` serves none of it.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, basic, openWs, rpc } from '../gateway/helpers.js';
import { testSeed } from '../rollup/fixture.js';
import { readArtifacts } from '../../src/explorer/artifacts.js';
import { readerOf } from '../../src/explorer/reads.js';
import type { GatewayContext } from '../../src/gateway/context.js';
import { Policy } from '../../src/gateway/policy/index.js';
import { parseKeys } from '../../src/gateway/policy/keys.js';
import { systemClock } from '../../src/clock.js';

let gw: Gateway;
let off: Gateway;
/** A keys file that lists one key, not `devgate`; a rollup tied to sepolia's blocks (accepted 2 blocks later). */
let closed: Gateway;
const ROLLUP = 'rollup-test';
/**
 * A seed that deploys a user's Hardhat and Foundry artifacts named by path (docs/dropin.md), none in a contracts/ folder;
 * beside it a rollup whose seed names its methods `paradex_` (not `starknet_`).
 */
let dropin: Gateway;
const DROPIN_SEED = fileURLToPath(new URL('../fixtures/dropin/seed.json', import.meta.url));
/** Artifacts handed to devgate (`artifacts`): a Foundry-like `out/` with a build-info folder, a .dbg.json and a cache file beside. */
const OUT = fileURLToPath(new URL('./fixtures/out', import.meta.url));
const BAD = fileURLToPath(new URL('./fixtures/bad', import.meta.url));

const KEYS = { open: true, defaultPlan: 'unlimited', keys: [{ key: 'locked', plan: 'team', secret: 'sesame-secret-value' }] };

beforeAll(async () => {
  [gw, off, closed, dropin] = await Promise.all([
    start({ port: 0, chains: ['chains/sepolia.json'], keys: KEYS, adminToken: 'explorer-test-token', artifacts: [OUT] }),
    start({ port: 0, chains: ['chains/sepolia.json'], explorer: false }),
    start({
      port: 0,
      chains: ['chains/sepolia.json', testSeed({ l1Acceptance: { kind: 'blocks', network: 'sepolia', blocks: 2 } })],
      keys: { open: false, keys: [{ key: 'runner', plan: 'free' }] },
    }),
    start({ port: 0, chains: [DROPIN_SEED, testSeed({ prefix: 'paradex' })] }),
  ]);
});
afterAll(() => Promise.all([gw?.stop(), off?.stop(), closed?.stop(), dropin?.stop()]));

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A GET (or HEAD) with headers of our choosing, Host included (fetch does not let one set it). */
function get(g: Gateway, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname: '127.0.0.1', port: g.port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('explorer routes', () => {
  it('serves the page at /explorer, its stable URLs, and at / for a browser (Accept: text/html)', async () => {
    for (const path of [
      '/explorer',
      '/explorer/',
      '/explorer/sepolia/block/3',
      '/explorer/sepolia/tx/0xab',
      '/explorer/sepolia/address/0x01',
      '/explorer/gateway',
    ]) {
      const r = await get(gw, path);
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(r.text, path).toMatch(/<script type="module" src="\/explorer\/assets\/app-[0-9a-f]{16}\.js">/);
    }
    const bare = await get(gw, '/', HTML);
    expect(bare.status).toBe(200);
    expect(bare.text).toContain('devgate explorer');
    const head = await get(gw, '/explorer', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('leaves JSON-RPC alone: POSTs at / and at a network, a GET of / without HTML, WebSocket upgrades', async () => {
    expect((await post(`http://127.0.0.1:${gw.port}/`, rpc('eth_chainId'), HTML)).json.result).toBe('0xaa36a7');
    expect((await post(gw.url('sepolia'), rpc('eth_chainId'), HTML)).json.result).toBe('0xaa36a7');
    const plain = await get(gw, '/');
    expect(plain.status).toBe(404);
    expect(JSON.parse(plain.text).error).toBe('not found');
    const ws = await openWs(gw.wsUrl('sepolia'));
    try {
      expect((await ask(ws, rpc('eth_chainId'))).result).toBe('0xaa36a7');
    } finally {
      ws.close();
    }
  });

  it('serves the script and the style under their digests (kept a year), the meta: networks and the ABIs devgate knows', async () => {
    const html = (await get(gw, '/explorer')).text;
    const jsPath = /src="(\/explorer\/assets\/app-[0-9a-f]{16}\.js)"/.exec(html)![1]!;
    const cssPath = /href="(\/explorer\/assets\/app-[0-9a-f]{16}\.css)"/.exec(html)![1]!;
    const js = await get(gw, jsPath);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text.length).toBeGreaterThan(1000);
    // The budget: no runtime over ~50 KB gzip (17 KB when written).
    expect(gzipSync(js.text).length).toBeLessThan(50 * 1024);
    expect((await get(gw, '/explorer/assets/app.js')).text).toBe(js.text);
    expect((await get(gw, '/explorer/assets/app.js')).headers['cache-control']).toBe('no-cache');
    const css = await get(gw, cssPath);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(gw, '/explorer/assets/app-0000000000000000.js')).status).toBe(404);
    const meta = JSON.parse((await get(gw, '/explorer/api/meta')).text);
    expect(meta.networks).toEqual([{ name: 'sepolia', kind: 'eth', chainId: '11155111' }]);
    expect(meta.bare).toBe('sepolia');
    expect(meta.abis.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(['Token', 'Reverter', 'Emitter', 'SimpleStore', 'StorageLayout']));
    expect((await get(gw, '/explorer/api/nothing')).status).toBe(404);
  });

  it('decodes with the artifacts a seed names by path too (its build output), the set its build reads', async () => {
    const meta = JSON.parse((await get(dropin, '/explorer/api/meta')).text);
    const names = meta.abis.map((a: { name: string }) => a.name);
    // The Hardhat and the Foundry artifact have one ABI: served once, beside the shipped contracts'.
    expect(names.filter((n: string) => n === 'ConsoleLogger')).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(['Token', 'ConsoleLogger']));
    const logger = meta.abis.find((a: { name: string }) => a.name === 'ConsoleLogger');
    expect(logger.abi.map((i: { type: string; name: string }) => `${i.type} ${i.name}`).sort()).toEqual(['function fail', 'function set', 'function value']);
  });

  it('decodes with the artifacts handed to it (artifacts: a folder searched through), read at start', async () => {
    const meta = JSON.parse((await get(gw, '/explorer/api/meta')).text);
    const vault = meta.abis.find((a: { name: string }) => a.name === 'Vault');
    expect(vault.abi.map((i: { type: string; name: string }) => `${i.type} ${i.name}`)).toEqual(['function deposit', 'event Deposited']);
    // build-info (not even JSON here), Vault.dbg.json and a JSON file without an abi are a build's other output: skipped.
    expect(meta.abis.map((a: { name: string }) => a.name)).not.toContain('cache');
  });

  it('names a bad artifact handed to it in a startup error', async () => {
    const bad = (artifacts: string[]) => start({ port: 0, chains: ['chains/sepolia.json'], artifacts });
    await expect(bad([BAD])).rejects.toThrow(/cannot read the artifacts given \(--artifacts.*fixtures\/bad\/Broken\.json is not JSON/);
    await expect(bad([`${OUT}/cache.json`])).rejects.toThrow(/out\/cache\.json is not a compiled artifact: it has no "abi" array/);
    await expect(bad([`${OUT}/nothing`])).rejects.toThrow(/out\/nothing: no such file or folder/);
    await expect(start({ port: 0, artifacts: 'x' as never })).rejects.toThrow(/invalid devgate options:\nartifacts/);
    // A budget of bytes read and of folder entries looked at.
    expect(() => readArtifacts([OUT], { bytes: 100, entries: 100 })).toThrow(/more than 100 bytes \(at .*Vault\.json\)/);
    expect(() => readArtifacts([OUT], { bytes: 1e6, entries: 3 })).toThrow(/hold more than 3 entries/);
    expect(readArtifacts([`${OUT}/Vault.sol/Vault.json`]).map((a) => a.name)).toEqual(['Vault']);
  });

  it("reads a rollup under its seed's method prefix: the meta says it, the first view and the page's reads use it", async () => {
    const meta = JSON.parse((await get(dropin, '/explorer/api/meta')).text);
    expect(meta.networks).toContainEqual({ name: ROLLUP, kind: 'rollup', chainId: 'SN_MAIN', prefix: 'paradex' });
    const first = JSON.parse(/id="first">(.*?)<\/script>/s.exec((await get(dropin, `/explorer/${ROLLUP}`)).text)![1]!);
    expect(first[ROLLUP].calls.at(-1)).toEqual(['starknet_blockNumber', []]);
    expect(first[ROLLUP].answers.map((a: { error?: unknown }) => a.error)).toEqual(first[ROLLUP].answers.map(() => undefined));
    expect(first[ROLLUP].answers.at(-1).result).toBe(Number(dropin.rollup(ROLLUP).blockNumber()));
    const url = `http://127.0.0.1:${dropin.port}/explorer/api/rpc/${ROLLUP}`;
    expect((await post(url, rpc('paradex_blockNumber'))).json.result).toBe(Number(dropin.rollup(ROLLUP).blockNumber()));
    expect((await post(url, rpc('paradex_addInvokeTransaction', [{}]))).json.error.message).toMatch(
      /reads only; it does not serve "paradex_addInvokeTransaction"/,
    );
    expect((await post(url, rpc('paradex_subscribeNewHeads', []))).json.error.message).toMatch(/outside its live stream/);
  });

  it('answers no other site: no CORS headers, same-origin resource policy, a strict CSP', async () => {
    for (const path of ['/explorer', '/explorer/assets/app.js', '/explorer/api/meta']) {
      const r = await get(gw, path, { origin: 'https://evil.example' });
      expect(r.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(r.headers['cross-origin-resource-policy'], path).toBe('same-origin');
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(r.headers['content-security-policy'], path).toMatch(/default-src 'none'.*connect-src 'self'.*frame-ancestors 'none'/);
    }
    const fetched = await get(gw, '/explorer/api/meta', { 'sec-fetch-site': 'cross-site' });
    expect(fetched.status).toBe(403);
    expect(JSON.parse(fetched.text).error).toMatch(/own pages only/);
  });

  it('refuses a foreign Host (DNS rebinding), as the admin interface does', async () => {
    for (const path of ['/explorer', '/explorer/api/meta', '/explorer/api/gateway']) {
      const r = await get(gw, path, { host: `evil.example:${gw.port}`, authorization: 'Bearer explorer-test-token' });
      expect(r.status, path).toBe(403);
      expect(r.text, path).toMatch(/loopback Host/);
    }
    for (const host of [`localhost:${gw.port}`, `sepolia.localhost:${gw.port}`, `127.0.0.1:${gw.port}`])
      expect((await get(gw, '/explorer', { host })).status, host).toBe(200);
  });

  it('gives the dashboard data only with the admin token, to its own origin, and never a secret', async () => {
    expect((await post(gw.url('sepolia', 'locked'), rpc('eth_chainId'), basic('sesame-secret-value'))).json.result).toBe('0xaa36a7');
    const none = await get(gw, '/explorer/api/gateway');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text).error).toMatch(/admin token required/);
    expect((await get(gw, '/explorer/api/gateway', { authorization: 'Bearer wrong' })).status).toBe(401);
    const token = { authorization: 'Bearer explorer-test-token' };
    const foreign = await get(gw, '/explorer/api/gateway', { ...token, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error).toMatch(/explorer's own page only/);
    expect((await get(gw, '/explorer/api/gateway', { ...token, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const own = await get(gw, '/explorer/api/gateway', { ...token, origin: `http://127.0.0.1:${gw.port}`, host: `127.0.0.1:${gw.port}` });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('no-store');
    expect(own.text).not.toContain('sesame-secret-value');
    const body = JSON.parse(own.text);
    expect(body.keys.keys).toEqual([expect.objectContaining({ key: 'locked', plan: 'team', secretSet: true })]);
    expect(body.usage.find((u: { key: string }) => u.key === 'locked').today.methods.eth_chainId.requests).toBe(1);
    // The admin interface itself still refuses every request with an Origin, its own page's included.
    const admin = await post(`http://127.0.0.1:${gw.port}/admin`, rpc('devgate_listKeys'), { ...token, origin: `http://127.0.0.1:${gw.port}` });
    expect(admin.status).toBe(403);
  });

  it("puts the first view's reads and their answers in the page (no round trip before it is drawn)", async () => {
    const head = Number(closed.eth('sepolia').blockNumber());
    const first = JSON.parse(/<script type="application\/json" id="first">(.*?)<\/script>/s.exec((await get(closed, '/explorer')).text)![1]!);
    expect(Object.keys(first)).toEqual(['sepolia', ROLLUP]);
    expect(first.sepolia.head).toBe(head);
    expect(first.sepolia.calls[0]).toEqual(['eth_getBlockByNumber', [`0x${head.toString(16)}`, true]]);
    expect(first.sepolia.answers[0].result.number).toBe(`0x${head.toString(16)}`);
    expect(first.sepolia.answers.at(-1).result).toBe(`0x${head.toString(16)}`);
    // A network's own page has its 25 blocks; other pages none.
    const one = JSON.parse(/id="first">(.*?)<\/script>/s.exec((await get(closed, `/explorer/${ROLLUP}`)).text)![1]!);
    expect(Object.keys(one)).toEqual([ROLLUP]);
    expect(/id="first">(.*?)<\/script>/s.exec((await get(closed, '/explorer/sepolia/block/0')).text)![1]).toBe('{}');
  });

  it('reads with a keys file that does not list devgate: as its own caller from this machine, read methods only', async () => {
    const url = `http://127.0.0.1:${closed.port}/explorer/api/rpc/sepolia`;
    // The bare-address key is refused to clients, as the keys file says ...
    expect((await post(closed.url('sepolia'), rpc('eth_blockNumber'))).status).toBe(401);
    // ... and the explorer reads all the same.
    const read = await post(url, rpc('eth_blockNumber'));
    expect(read.status).toBe(200);
    expect(read.json.result).toBe(`0x${closed.eth('sepolia').blockNumber().toString(16)}`);
    expect((await post(url, [rpc('eth_chainId'), rpc('eth_blockNumber')])).json.error.message).toMatch(/reads only; it does not serve "eth_chainId"/);
    for (const method of ['evm_mine', 'eth_sendRawTransaction', 'anvil_setBalance', 'eth_subscribe']) {
      const r = await post(url, rpc(method, []));
      expect(r.json.error.message, method).toMatch(/the explorer reads only/);
    }
    expect((await post(url, rpc('eth_blockNumber'), { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(url, rpc('eth_blockNumber'), { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(`http://127.0.0.1:${closed.port}/explorer/api/rpc/nowhere`, rpc('eth_blockNumber'))).json.error).toMatch(/no network "nowhere"/);
    const big = await post(url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: ['x'.repeat(6 * 1024 * 1024)] });
    expect(big.status).toBe(413);
    // Its reads are no key's: they spend no key's credits and show in no key's usage.
    expect(closed.policy.getUsage().map((u) => u.key)).toEqual(['runner']);
    expect(closed.policy.getUsage('runner').today.requests).toBe(0);
    // From another machine (devgate bound to another host) the explorer reads as the key devgate: refused here.
    const from = (remoteAddress: string) => ({ socket: { remoteAddress }, headers: {} }) as never;
    const ctxOf = (keys: object) => ({ policy: new Policy(parseKeys(keys, 'test'), systemClock) }) as unknown as GatewayContext;
    const listedOnly = ctxOf({ open: false, keys: [{ key: 'runner', plan: 'free' }] });
    expect(readerOf(listedOnly, from('192.0.2.7'))).toEqual({
      status: 401,
      message: expect.stringMatching(/as the key "devgate", which the keys file does not let in/),
    });
    for (const local of ['127.0.0.1', '::ffff:127.0.0.1', '::1'])
      expect(readerOf(listedOnly, from(local))).toEqual({ caller: expect.objectContaining({ key: expect.objectContaining({ key: '(explorer)' }) }) });
    const withDevgate = ctxOf({ open: false, keys: [{ key: 'devgate', plan: 'free' }] });
    expect(readerOf(withDevgate, from('192.0.2.7'))).toEqual({ caller: expect.objectContaining({ key: expect.objectContaining({ key: 'devgate' }) }) });
  });

  it('streams notifications of the subscriptions made on its live stream', async () => {
    const res = await fetch(`http://127.0.0.1:${closed.port}/explorer/api/live`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    let text = '';
    const until = async (re: RegExp): Promise<RegExpExecArray> => {
      for (;;) {
        const m = re.exec(text);
        if (m !== null) return m;
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${re}: ${text}`);
        text += new TextDecoder().decode(value);
      }
    };
    const id = (await until(/event: hello\ndata: ([0-9a-f]{32})\n\n/))[1]!;
    const url = `http://127.0.0.1:${closed.port}/explorer/api/rpc/sepolia`;
    expect((await post(url, rpc('eth_subscribe', ['newHeads']))).json.error.message).toMatch(/outside its live stream/);
    expect((await post(`${url}?stream=${'0'.repeat(32)}`, rpc('eth_subscribe', ['newHeads']))).json.error.message).toMatch(/no live stream/);
    const sub = await post(`${url}?stream=${id}`, rpc('eth_subscribe', ['newHeads']));
    expect(sub.json.result).toMatch(/^0x/);
    const [mined] = await closed.eth('sepolia').mine();
    const event = await until(/event: net\ndata: sepolia (.*)\n\n/);
    const note = JSON.parse(event[1]!);
    expect(note.params.subscription).toBe(sub.json.result);
    expect(note.params.result.number).toBe(`0x${mined!.toString(16)}`);
    // A stream takes at most 1,000 subscription calls.
    const many = Array.from({ length: 1001 }, (_, i) => rpc('eth_subscribe', ['newHeads'], i));
    expect((await post(`${url}?stream=${id}`, many)).json.error.message).toMatch(/at most 1000 subscription calls/);
    await reader.cancel();
  });

  it('opens at most 64 live streams at once', async () => {
    const live = `http://127.0.0.1:${closed.port}/explorer/api/live`;
    const open = await Promise.all(Array.from({ length: 64 }, () => fetch(live)));
    expect(open.map((r) => r.status)).toEqual(Array(64).fill(200));
    const over = await fetch(live);
    expect(over.status).toBe(503);
    expect(await over.text()).toMatch(/at most 64 live streams/);
    await Promise.all(open.map((r) => r.body!.cancel()));
    // Closed streams are forgotten: a new one opens.
    await expect.poll(async () => await fetch(live).then(async (r) => (await r.body!.cancel(), r.status)), { timeout: 5000 }).toBe(200);
  });

  it('links a rollup block to the eth block that accepted it on L1, where the seed ties them', async () => {
    const l1 = (path: string) => get(closed, `/explorer/api/l1/${path}`).then((r) => ({ status: r.status, body: JSON.parse(r.text) }));
    // The rollup reads its L1 head at each call: a block sealed after one is anchored at sepolia's head then.
    await post(closed.url(ROLLUP, 'runner'), rpc('starknet_blockNumber'));
    const anchor = closed.eth('sepolia').blockNumber();
    const { number } = closed.rollup(ROLLUP).createBlock();
    expect((await l1(`${ROLLUP}/${number}`)).body).toEqual({ l1: 'sepolia', block: null });
    await closed.eth('sepolia').mine({ blocks: 3 });
    await post(closed.url(ROLLUP, 'runner'), rpc('starknet_blockNumber'));
    expect((await post(closed.url(ROLLUP, 'runner'), rpc('starknet_getBlockWithTxHashes', [{ block_number: Number(number) }]))).json.result.status).toBe(
      'ACCEPTED_ON_L1',
    );
    expect((await l1(`${ROLLUP}/${number}`)).body).toEqual({ l1: 'sepolia', block: Number(anchor) + 2 });
    expect(await l1('sepolia/1')).toEqual({ status: 404, body: { error: 'no rollup network "sepolia"' } });
    expect((await l1(`${ROLLUP}/x`)).status).toBe(400);
    expect((await get(gw, '/explorer/api/l1/sepolia/1')).status).toBe(404);
  });

  it('serves nothing with explorer: false', async () => {
    expect((await get(off, '/explorer')).status).toBe(404);
    expect((await get(off, '/', HTML)).status).toBe(404);
    expect((await get(off, '/explorer/api/meta')).status).toBe(404);
    expect((await post(off.url('sepolia'), rpc('eth_chainId'))).json.result).toBe('0xaa36a7');
  });
});
