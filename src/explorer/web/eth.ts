/** The eth networks' views: overview, block, transaction (decoded input and logs, call tree, state diff), address. */
import { decodeInput, decodeLog } from './decode.js';
import { eth, fields, gwei, h, link, num, short, table, time } from './dom.js';
import { overviewCalls } from './overview.js';
import { batch, call, knownHeads, type NetworkMeta } from './rpc.js';

const base = (n: string) => `/explorer/${n}`;
const blockLink = (n: string, number: string | null) => (number === null ? 'pending' : link(`${base(n)}/block/${num(number)}`, num(number)));
const txLink = (n: string, hash: string) => link(`${base(n)}/tx/${hash}`, short(hash), 'tx');
const addrLink = (n: string, a: string | null | undefined) => (a ? link(`${base(n)}/address/${a}`, short(a, 12)) : '');

/** What a transaction does, in a few words: the decoded method, a creation, or a plain transfer. */
function what(tx: any): string {
  if (tx.to === null) return 'create';
  const d = decodeInput(tx.input);
  if (d !== undefined) return d.name;
  return tx.input === '0x' ? 'transfer' : tx.input.slice(0, 10);
}

export async function ethOverview(net: NetworkMeta, count = 10): Promise<HTMLElement> {
  const n = net.name;
  let head = knownHeads.get(n) ?? Number(BigInt(await call<string>(n, 'eth_blockNumber')));
  let numbers = 0;
  let answers: Awaited<ReturnType<typeof batch>> = [];
  // One round trip from a known head; again from the head the answer gives should the chain have moved meanwhile.
  for (let tries = 0; tries < 2; tries++) {
    const calls = overviewCalls('eth', head, count);
    numbers = calls.length - 2;
    answers = await batch(n, calls);
    const now = Number(BigInt(answers.at(-1)?.result ?? '0x0'));
    knownHeads.set(n, now);
    if (now === head) break;
    head = now;
  }
  answers = answers.slice(0, -1);
  const blocks = answers
    .slice(0, numbers)
    .map((a) => a.result)
    .filter((b) => b);
  const pool = answers.at(-1)!.result as { pending?: Record<string, Record<string, any>>; queued?: Record<string, Record<string, any>> } | undefined;
  const txs = blocks.flatMap((b: any) => b.transactions).slice(0, count);
  const pooled = Object.values(pool?.pending ?? {}).flatMap((byNonce) => Object.values(byNonce));
  const queued = Object.values(pool?.queued ?? {}).flatMap((byNonce) => Object.values(byNonce));
  return h(
    'section',
    { class: 'net', 'data-network': n },
    h('h2', {}, link(base(n), n), h('span', { class: 'muted' }, ` eth · chain id ${net.chainId} · head `), h('span', { 'data-field': 'head' }, String(head))),
    h(
      'div',
      { class: 'cols' },
      h(
        'div',
        {},
        h('h3', {}, 'Latest blocks'),
        table(
          ['Block', 'Hash', 'Txs', 'Gas used', 'Base fee', 'Time'],
          blocks.map((b: any) => [
            blockLink(n, b.number),
            short(b.hash),
            b.transactions.length,
            num(b.gasUsed),
            gwei(b.baseFeePerGas),
            time(b.timestamp).split(' ')[0],
          ]),
        ),
      ),
      h(
        'div',
        {},
        h('h3', {}, 'Latest transactions'),
        table(
          ['Tx', 'Block', 'From', 'To', 'Value', 'Method'],
          txs.map((t: any) => [txLink(n, t.hash), blockLink(n, t.blockNumber), addrLink(n, t.from), addrLink(n, t.to), eth(t.value), what(t)]),
        ),
      ),
    ),
    h('h3', {}, 'Pending pool ', h('span', { class: 'muted', 'data-field': 'pool' }, `${pooled.length} pending, ${queued.length} queued`)),
    table(
      ['Tx', 'From', 'Nonce', 'To', 'Value', 'Method'],
      [...pooled, ...queued].map((t: any) => [txLink(n, t.hash), addrLink(n, t.from), num(t.nonce), addrLink(n, t.to), eth(t.value), what(t)]),
    ),
  );
}

export async function ethBlock(net: NetworkMeta, id: string): Promise<HTMLElement> {
  const n = net.name;
  const b = /^0x[0-9a-fA-F]{64}$/.test(id)
    ? await call(n, 'eth_getBlockByHash', [id, true])
    : await call(n, 'eth_getBlockByNumber', [/^\d+$/.test(id) ? `0x${BigInt(id).toString(16)}` : id, true]);
  if (b === null) return h('p', { class: 'error' }, `no block ${id} on ${n}`);
  return h(
    'section',
    {},
    h('h2', {}, `Block ${num(b.number)} `, h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Number', 'number', num(b.number)],
      ['Hash', 'hash', b.hash],
      ['Parent', 'parentHash', b.number === '0x0' ? b.parentHash : link(`${base(n)}/block/${b.parentHash}`, b.parentHash)],
      ['Time', 'timestamp', time(b.timestamp)],
      ['Fee recipient', 'miner', addrLink(n, b.miner)],
      ['Transactions', 'txCount', String(b.transactions.length)],
      ['Gas used', 'gasUsed', `${num(b.gasUsed)} of ${num(b.gasLimit)}`],
      ['Base fee', 'baseFee', gwei(b.baseFeePerGas)],
      ['State root', 'stateRoot', b.stateRoot],
    ]),
    h('h3', {}, 'Transactions'),
    table(
      ['#', 'Tx', 'From', 'To', 'Value', 'Method'],
      b.transactions.map((t: any) => [num(t.transactionIndex), txLink(n, t.hash), addrLink(n, t.from), addrLink(n, t.to), eth(t.value), what(t)]),
    ),
  );
}

export async function ethTx(net: NetworkMeta, hash: string): Promise<HTMLElement> {
  const n = net.name;
  const [tx, receipt] = await batch(n, [
    ['eth_getTransactionByHash', [hash]],
    ['eth_getTransactionReceipt', [hash]],
  ]);
  const t = tx?.result;
  if (!t) return h('p', { class: 'error' }, `no transaction ${hash} on ${n}`);
  const r = receipt?.result;
  const [calls, diff] = r
    ? await batch(n, [
        ['debug_traceTransaction', [hash, { tracer: 'callTracer' }]],
        ['debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]],
      ])
    : [undefined, undefined];
  const input = decodeInput(t.input);
  const status = r ? (r.status === '0x1' ? 'success' : r.status === '0x0' ? 'reverted' : 'mined') : 'pending';
  const fee = r ? eth(`0x${(BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)).toString(16)}`) : '';
  return h(
    'section',
    {},
    h('h2', {}, 'Transaction ', h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Hash', 'hash', t.hash],
      ['Status', 'status', h('span', { class: `status ${status}` }, status)],
      ['Block', 'block', blockLink(n, t.blockNumber)],
      ['From', 'from', addrLink(n, t.from)],
      ['To', 'to', t.to === null ? `create ${r?.contractAddress ?? ''}` : addrLink(n, t.to)],
      ['Value', 'value', eth(t.value)],
      ['Fee', 'fee', fee],
      ['Gas used', 'gasUsed', r ? `${num(r.gasUsed)} of ${num(t.gas)}` : ''],
      ['Nonce', 'nonce', num(t.nonce)],
      ['Type', 'type', num(t.type)],
      ['Method', 'method', input?.name ?? (t.input === '0x' ? 'transfer' : 'unknown')],
    ]),
    input === undefined
      ? null
      : table(
          ['Argument', 'Value'],
          input.args.map(([k, v]) => [k, v]),
          'list args',
        ),
    h('details', {}, h('summary', {}, 'Input data'), h('pre', { class: 'hex' }, t.input)),
    h('h3', {}, `Logs (${r?.logs.length ?? 0})`),
    table(
      ['#', 'Address', 'Event', 'Arguments'],
      (r?.logs ?? []).map((l: any) => {
        const d = decodeLog(l.topics, l.data);
        return [num(l.logIndex), addrLink(n, l.address), d?.name ?? short(l.topics[0] ?? ''), d ? d.args.map(([k, v]) => `${k}=${v}`).join(', ') : l.data];
      }),
    ),
    h('h3', {}, 'Call tree'),
    calls?.result
      ? h('div', { class: 'calls', 'data-field': 'calls' }, callNode(n, calls.result))
      : h('p', { class: 'muted' }, calls?.error?.message ?? 'pending'),
    h('h3', {}, 'State diff'),
    diff?.result ? stateDiff(n, diff.result) : h('p', { class: 'muted' }, diff?.error?.message ?? 'pending'),
  );
}

function callNode(n: string, c: any): HTMLElement {
  const d = decodeInput(c.input);
  const label = d ? `${d.name}(${d.args.map(([k, v]) => `${k}=${v}`).join(', ')})` : c.input && c.input !== '0x' ? c.input.slice(0, 10) : '';
  return h(
    'div',
    { class: `call${c.error ? ' failed' : ''}` },
    h('span', { class: 'type' }, c.type),
    ' ',
    addrLink(n, c.from),
    ' → ',
    addrLink(n, c.to),
    ' ',
    label,
    c.value && c.value !== '0x0' ? ` · ${eth(c.value)}` : '',
    ` · gas ${num(c.gasUsed)}`,
    c.error ? h('span', { class: 'error', 'data-field': 'revert' }, ` · ${c.error}${c.revertReason ? `: ${c.revertReason}` : ''}`) : '',
    ...(c.calls ?? []).map((x: any) => callNode(n, x)),
  );
}

function stateDiff(n: string, d: { pre: Record<string, any>; post: Record<string, any> }): HTMLElement {
  const rows: any[][] = [];
  for (const addr of new Set([...Object.keys(d.pre), ...Object.keys(d.post)])) {
    const pre = d.pre[addr] ?? {};
    const post = d.post[addr] ?? {};
    for (const f of ['balance', 'nonce'])
      if (post[f] !== undefined) rows.push([addrLink(n, addr), f, f === 'balance' ? eth(pre[f]) : num(pre[f]), f === 'balance' ? eth(post[f]) : num(post[f])]);
    if (post.code !== undefined) rows.push([addrLink(n, addr), 'code', short(pre.code ?? '0x'), short(post.code)]);
    for (const slot of new Set([...Object.keys(pre.storage ?? {}), ...Object.keys(post.storage ?? {})]))
      rows.push([addrLink(n, addr), `slot ${short(slot)}`, short(pre.storage?.[slot] ?? '0x0'), short(post.storage?.[slot] ?? '0x0')]);
  }
  return table(['Address', 'Field', 'Before', 'After'], rows, 'list diff');
}

export async function ethAddress(net: NetworkMeta, addr: string): Promise<HTMLElement> {
  const n = net.name;
  const [balance, nonce, code, search] = await batch(n, [
    ['eth_getBalance', [addr, 'latest']],
    ['eth_getTransactionCount', [addr, 'latest']],
    ['eth_getCode', [addr, 'latest']],
    ['ots_searchTransactionsBefore', [addr, 0, 25]],
  ]);
  const txs: any[] = search?.result?.txs ?? [];
  // Storage slots this address had written, from the state diffs of its latest transactions.
  const diffs = await batch(
    n,
    txs.slice(0, 10).map((t) => ['debug_traceTransaction', [t.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]] as const),
  );
  const lower = addr.toLowerCase();
  const slots = new Set<string>();
  for (const d of diffs) for (const s of Object.keys(d.result?.post?.[lower]?.storage ?? {})) slots.add(s);
  const values = await batch(
    n,
    [...slots].map((s) => ['eth_getStorageAt', [addr, s, 'latest']] as const),
  );
  return h(
    'section',
    {},
    h('h2', {}, 'Address ', h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Address', 'address', addr],
      ['Balance', 'balance', eth(balance?.result)],
      ['Nonce', 'nonce', num(nonce?.result)],
      ['Code', 'code', code?.result && code.result !== '0x' ? `${(code.result.length - 2) / 2} bytes` : 'none (an account)'],
    ]),
    h('h3', {}, 'Storage slots touched'),
    table(
      ['Slot', 'Value'],
      [...slots].map((s, i) => [s, values[i]?.result ?? '']),
    ),
    h('h3', {}, 'Transactions'),
    table(
      ['Tx', 'Block', 'From', 'To', 'Value', 'Method'],
      txs.map((t) => [txLink(n, t.hash), blockLink(n, t.blockNumber), addrLink(n, t.from), addrLink(n, t.to), eth(t.value), what(t)]),
    ),
  );
}
