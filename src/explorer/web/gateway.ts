/**
 * The gateway dashboard: keys and plans, credits used and left, refusals (429s) and outages, per key and per
 * method, polled each second from `/explorer/api/gateway` with the admin token (typed once, kept for the tab in
 * sessionStorage). Refusals over the last five minutes are the differences between the samples this page took.
 */
import { h, table } from './dom.js';

const TOKEN = 'devgate-admin-token';
const WINDOW_MS = 5 * 60_000;
const samples: { at: number; rejected: Record<string, number> }[] = [];

export async function gatewayView(): Promise<HTMLElement> {
  const token = sessionStorage.getItem(TOKEN);
  if (token === null) return tokenForm();
  const res = await fetch('/explorer/api/gateway', { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  const body = await res.json();
  if (res.status !== 200) {
    sessionStorage.removeItem(TOKEN);
    return h('div', {}, h('p', { class: 'error', 'data-field': 'dashboardError' }, body.error), tokenForm());
  }
  const now = body.at as number;
  const rejectedNow: Record<string, number> = {};
  for (const u of body.usage) rejectedNow[u.key] = Object.values(u.rejected as Record<string, number>).reduce((a, b) => a + b, 0);
  samples.push({ at: now, rejected: rejectedNow });
  while (samples.length > 0 && samples[0]!.at < now - WINDOW_MS) samples.shift();
  const oldest = samples[0]!;
  const keyRows = body.usage.map((u: any) => {
    const daily = u.limits?.creditsPerDay;
    const used = u.today.credits;
    return [
      h('span', { 'data-field': 'key' }, u.key),
      u.plan,
      String(used),
      daily === undefined || daily === null ? 'unlimited' : String(Math.max(0, daily - used)),
      String(u.today.requests),
      Object.entries(u.rejected)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      String(rejectedNow[u.key]! - (oldest.rejected[u.key] ?? 0)),
    ];
  });
  const methodRows = body.usage.flatMap((u: any) =>
    Object.entries(u.today.methods as Record<string, { requests: number; credits: number }>).map(([m, t]) => [u.key, m, String(t.requests), String(t.credits)]),
  );
  return h(
    'section',
    { class: 'gateway' },
    h(
      'h2',
      {},
      'Gateway ',
      h(
        'span',
        { class: 'muted' },
        `keys ${body.keys.open ? 'open' : 'listed only'} · default plan ${body.keys.defaultPlan} · ${body.connections.sockets} connections (${body.connections.websockets} WebSocket)`,
      ),
    ),
    h('h3', {}, 'Keys'),
    table(['Key', 'Plan', 'Credits today', 'Credits left', 'Requests today', 'Refused (total)', 'Refused, last 5 min'], keyRows, 'list keys'),
    h('h3', {}, 'Per method (today)'),
    table(['Key', 'Method', 'Requests', 'Credits'], methodRows, 'list methods'),
    h('h3', {}, 'Outages'),
    table(
      ['Network', 'State', 'Methods', 'From', 'Until'],
      body.outages.map((o: any) => [
        o.network,
        o.status === 'active' ? 'under way' : 'scheduled',
        o.methods === null ? 'all' : o.methods.join(', '),
        at(o.startsAt),
        at(o.endsAt),
      ]),
    ),
    h('h3', {}, 'Listed keys and plans'),
    table(
      ['Key', 'Plan', 'Secret', 'Allowlists'],
      body.keys.keys.map((k: any) => [k.key, k.plan ?? body.keys.defaultPlan, k.secretSet ? 'set' : '', Object.keys(k.allowlists ?? {}).join(', ')]),
    ),
  );
}

const at = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString());

/** Whether the dashboard has a token to poll with. */
export function dashboardOpen(): boolean {
  return sessionStorage.getItem(TOKEN) !== null;
}

function tokenForm(): HTMLElement {
  const input = h('input', {
    type: 'password',
    class: 'token',
    name: 'token',
    placeholder: 'admin token',
    autocomplete: 'off',
    id: 'admin-token',
  }) as HTMLInputElement;
  const form = h(
    'form',
    { class: 'token', id: 'token-form' },
    h('p', {}, 'The gateway dashboard needs the admin token (devgate prints it at start; start() gives it as gw.adminToken).'),
    input,
    h('button', { class: 'go' }, 'Open'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    sessionStorage.setItem(TOKEN, input.value.trim());
    dispatchEvent(new PopStateEvent('popstate'));
  });
  return form;
}
