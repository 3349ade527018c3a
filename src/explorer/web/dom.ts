/** DOM helpers: elements built by hand (never from HTML text, so chain data can hold no markup), and formatting. */

type Child = Node | string | number | bigint | null | undefined | false | readonly Child[];

export function h(tag: string, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

/** A link within the explorer (the router takes the click, no reload). */
export function link(path: string, text: Child, field?: string): HTMLElement {
  return h('a', { href: path, 'data-field': field }, text);
}

/** A table of label/value rows; each value cell carries `data-field` for tests and styling. */
export function fields(rows: readonly (readonly [string, string, Child])[]): HTMLElement {
  return h('table', { class: 'fields' }, ...rows.map(([label, field, value]) => h('tr', {}, h('th', {}, label), h('td', { 'data-field': field }, value))));
}

export function table(head: readonly string[], rows: readonly Child[][], cls = 'list'): HTMLElement {
  return h(
    'table',
    { class: cls },
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))),
    h(
      'tbody',
      {},
      ...(rows.length === 0
        ? [h('tr', {}, h('td', { colspan: String(head.length), class: 'muted' }, 'none'))]
        : rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
    ),
  );
}

export function short(hex: string | null | undefined, keep = 10): string {
  if (hex === null || hex === undefined) return '';
  return hex.length <= keep * 2 + 1 ? hex : `${hex.slice(0, keep)}…${hex.slice(-6)}`;
}

export function num(hex: string | null | undefined): string {
  if (hex === null || hex === undefined) return '';
  return BigInt(hex).toString(10);
}

/** A unit amount (wei, fri) as a decimal with `decimals` places, trailing zeros dropped. */
export function units(value: bigint, decimals = 18): string {
  const neg = value < 0n;
  const v = neg ? -value : value;
  const base = 10n ** BigInt(decimals);
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${v / base}${frac === '' ? '' : `.${frac}`}`;
}

export function eth(hex: string | null | undefined): string {
  return hex === null || hex === undefined ? '' : `${units(BigInt(hex))} ETH`;
}

export function gwei(hex: string | null | undefined): string {
  return hex === null || hex === undefined ? '' : `${units(BigInt(hex), 9)} gwei`;
}

export function time(hex: string | number | null | undefined): string {
  if (hex === null || hex === undefined) return '';
  const s = typeof hex === 'number' ? hex : Number(BigInt(hex));
  return `${new Date(s * 1000).toISOString().replace('.000Z', 'Z')} (${s})`;
}

/** Any decoded value (bigints, arrays, structs) as text. */
export function show(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${show(x)}`)
      .join(', ')}}`;
  return String(v);
}
