/**
 * The explorer page: a router over stable URLs (`/explorer`, `/explorer/<network>`, `/explorer/<network>/block/<id>`,
 * `/explorer/<network>/tx/<hash>`, `/explorer/<network>/address/<addr>`, `/explorer/gateway`), a search box, and the
 * live view: each network's subscriptions on the live stream redraw the page when a block, a transaction or a status
 * arrives.
 */
import { learnAbis } from './decode.js';
import { h, link } from './dom.js';
import { ethAddress, ethBlock, ethOverview, ethTx } from './eth.js';
import { dashboardOpen, gatewayView } from './gateway.js';
import { search } from './search.js';
import { learnReorg, type Reorg, rollupAddress, rollupBlock, rollupOverview, rollupTx, watching } from './rollup.js';
import type { Calls, FirstData } from './overview.js';
import { dropPreloaded, knownHeads, learnPrefixes, Live, type Meta, type NetworkMeta, preload } from './rpc.js';

let meta: Meta;
let live: Live | undefined;
const subscribed = new Set<string>();

async function boot(): Promise<void> {
  const inline = document.getElementById('meta')?.textContent;
  meta = (inline ? JSON.parse(inline) : await (await fetch('/explorer/api/meta')).json()) as Meta;
  preload(JSON.parse(document.getElementById('first')?.textContent || '{}') as FirstData);
  learnAbis(meta);
  learnPrefixes(meta.networks);
  const nav = document.getElementById('nets')!;
  nav.replaceChildren(...meta.networks.map((n) => link(`/explorer/${n.name}`, n.name)), link('/explorer/gateway', 'gateway'));
  document.addEventListener('click', (e) => {
    const a = (e.target as Element).closest('a');
    if (a === null || a.origin !== location.origin || !a.pathname.startsWith('/explorer') || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    go(a.pathname);
  });
  addEventListener('popstate', () => void render());
  document.getElementById('search')!.addEventListener('submit', (e) => {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem('q') as HTMLInputElement;
    void search(meta, current(), input.value.trim()).then((path) =>
      path === undefined ? showError(`nothing found for ${JSON.stringify(input.value)}`) : go(path),
    );
  });
  // The first view is drawn first (from the data in the page); the live stream opens meanwhile.
  const first = render();
  live = new Live(
    meta.networks.map((n) => ({ name: n.name, subscriptions: subscriptionsOf(n) })),
    onEvent,
    onState,
  );
  // The dashboard is polled each second while it is in view (its data is the admin's, not on the chains' sockets).
  setInterval(() => {
    if (location.pathname.startsWith('/explorer/gateway') && dashboardOpen()) void render();
  }, 1000);
  await first;
  dropPreloaded();
}

function subscriptionsOf(n: NetworkMeta): Calls {
  return n.kind === 'eth'
    ? [
        ['eth_subscribe', ['newHeads']],
        ['eth_subscribe', ['newPendingTransactions']],
      ]
    : [
        ['starknet_subscribeNewHeads', {}],
        ['starknet_subscribePendingTransactions', {}],
      ];
}

/** The network the URL names, else the bare address's, else the first. */
function current(): NetworkMeta {
  const name = location.pathname.split('/')[2];
  return meta.networks.find((n) => n.name === name) ?? meta.networks.find((n) => n.name === meta.bare) ?? meta.networks[0]!;
}

function go(path: string): void {
  history.pushState(null, '', path);
  void render();
}

let rendering = 0;

/** Draws the view of the URL; a redraw asked while one runs is done once after it. `redraw`: a live redraw of the view. */
async function render(redraw = false): Promise<void> {
  const mine = ++rendering;
  const main = document.getElementById('main')!;
  let view: HTMLElement;
  try {
    view = await viewOf(location.pathname, redraw);
  } catch (err) {
    view = h('p', { class: 'error' }, (err as Error).message);
  }
  if (mine !== rendering) return;
  main.replaceChildren(view);
  main.dataset.rendered = String(Date.now());
  // Milliseconds from the navigation to this view drawn (the first page's time, measured by the browser test).
  main.dataset.ms = String(Math.round(performance.now()));
  subscribeStatuses();
}

async function viewOf(path: string, redraw: boolean): Promise<HTMLElement> {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  if (parts[0] !== 'explorer' || parts.length === 1) return overview(meta.networks);
  if (parts[1] === 'gateway') return gatewayView();
  const net = meta.networks.find((n) => n.name === parts[1]);
  if (net === undefined) return h('p', { class: 'error' }, `no network ${parts[1]}; networks: ${meta.networks.map((n) => n.name).join(', ')}`);
  const [what, id] = [parts[2], parts[3] ?? ''];
  if (what === undefined) return overview([net], 25);
  const eth = net.kind === 'eth';
  if (what === 'block') return eth ? ethBlock(net, id) : rollupBlock(net, id, redraw);
  if (what === 'tx') return eth ? ethTx(net, id) : rollupTx(net, id);
  if (what === 'address') return eth ? ethAddress(net, id) : rollupAddress(net, id);
  return h('p', { class: 'error' }, `no page ${path}`);
}

async function overview(nets: readonly NetworkMeta[], count = 10): Promise<HTMLElement> {
  const parts = await Promise.all(
    nets.map((n) =>
      (n.kind === 'eth' ? ethOverview(n, count) : rollupOverview(n, count)).catch((e) => h('p', { class: 'error' }, `${n.name}: ${(e as Error).message}`)),
    ),
  );
  return h('div', {}, ...parts);
}

let redraw: ReturnType<typeof setTimeout> | undefined;
/** Networks whose sections of the front page wait for a redraw. */
const dirty = new Set<string>();

/** A notification: the network's section of the front page is redrawn, any other page whole. */
function onEvent(network: string, method: string, result: unknown): void {
  if (location.pathname.startsWith('/explorer/gateway')) return;
  const r = result as { number?: string; block_number?: number } | null;
  if (method === 'eth_subscription' && typeof r?.number === 'string') knownHeads.set(network, Number(BigInt(r.number)));
  if (method.endsWith('subscriptionNewHeads') && typeof r?.block_number === 'number') knownHeads.set(network, r.block_number);
  // Blocks left a rollup's chain (rejected): the head is below them now, and the overview lists those REJECTED.
  if (method.endsWith('subscriptionReorg')) {
    const reorg = result as Reorg;
    if (typeof reorg?.starting_block_number === 'number') knownHeads.set(network, reorg.starting_block_number - 1);
    void learnReorg(network, reorg);
  }
  dirty.add(network);
  // Events come in bursts (a block and its transactions): one redraw for the burst.
  clearTimeout(redraw);
  redraw = setTimeout(() => void redrawDirty(), 15);
}

async function redrawDirty(): Promise<void> {
  const networks = [...dirty];
  dirty.clear();
  if (!isFrontPage()) return render(true);
  // A network's page shows that network only: the others' events change nothing on it.
  const shown = networks.filter((n) => document.querySelector(`main section.net[data-network="${CSS.escape(n)}"]`) !== null);
  const sections = shown.map((n) => document.querySelector<HTMLElement>(`main section.net[data-network="${CSS.escape(n)}"]`));
  const mine = rendering;
  await Promise.all(
    shown.map(async (n, i) => {
      const net = meta.networks.find((x) => x.name === n)!;
      const fresh = await (net.kind === 'eth' ? ethOverview(net, count()) : rollupOverview(net, count())).catch(() => undefined);
      if (fresh !== undefined && mine === rendering && sections[i]!.isConnected) sections[i]!.replaceWith(fresh);
    }),
  );
  document.getElementById('main')!.dataset.rendered = String(Date.now());
  subscribeStatuses();
}

const isFrontPage = () => /^\/(explorer\/?|explorer\/[^/]+\/?)?$/.test(location.pathname);
const count = () => (location.pathname.split('/').filter((p) => p !== '').length === 2 ? 25 : 10);

/** How many networks' subscriptions are in place on the live stream. */
function onState(subscribed: number): void {
  const el = document.getElementById('live')!;
  el.textContent = subscribed === meta.networks.length ? '● live' : '○ connecting';
  el.dataset.open = String(subscribed);
}

/** Hears of status changes of the rollup transactions on screen whose blocks are not final yet. */
function subscribeStatuses(): void {
  if (live === undefined) return;
  for (const [n, hashes] of watching) {
    for (const hash of hashes) {
      if (subscribed.has(hash)) continue;
      subscribed.add(hash);
      live.send(n, 'starknet_subscribeTransactionStatus', { transaction_hash: hash });
    }
  }
}

function showError(text: string): void {
  document.getElementById('main')!.replaceChildren(h('p', { class: 'error' }, text));
}

void boot().catch((err) => showError(`the explorer could not start: ${(err as Error).message}`));
