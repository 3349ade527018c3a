/**
 * What an overview reads, in one round trip from a known head: shared by the page (eth.ts, rollup.ts) and the
 * server, which runs the first view's reads as it serves the page and puts their answers in it (first.ts). No DOM
 * here: the server compiles this file too.
 */
export type Calls = [string, unknown][];

/**
 * A Starknet method as a rollup network serves it: under its seed's own `prefix` (`starknet` unless the seed says,
 * e.g. `paradex`). The page and the server name the rollup's methods by their spec names (`starknet_getNonce`) and
 * send them under the network's prefix here, the one place; `prefix` undefined (an eth network): unchanged.
 */
export const served = (method: string, prefix: string | undefined): string => (prefix === undefined ? method : method.replace(/^starknet_/, `${prefix}_`));

/** The spec name (`starknet_X`) of a method a rollup network with `prefix` serves (`<prefix>_X`); others unchanged. */
export const specName = (method: string, prefix: string | undefined): string =>
  prefix !== undefined && method.startsWith(`${prefix}_`) ? `starknet_${method.slice(prefix.length + 1)}` : method;

/** The method that answers a network's head number. */
export const headMethod = (kind: string): string => (kind === 'eth' ? 'eth_blockNumber' : 'starknet_blockNumber');

/** The head's number from headMethod's result (eth: a hex quantity; rollup: a number). */
export const headNumber = (result: unknown): number => (typeof result === 'number' ? result : Number(BigInt(result as string)));

const below = (head: number, count: number): number[] => Array.from({ length: Math.min(count, head + 1) }, (_, i) => head - i);

/** The overview's reads from `head`: its `count` newest blocks, the pool (eth) or pending block (rollup), the head again (last). */
export function overviewCalls(kind: string, head: number, count: number): Calls {
  if (kind === 'eth') {
    return [
      ...below(head, count).map((b): [string, unknown] => ['eth_getBlockByNumber', [`0x${b.toString(16)}`, true]]),
      ['txpool_content', []],
      ['eth_blockNumber', []],
    ];
  }
  return [
    ['starknet_getBlockWithTxHashes', ['pending']],
    ...below(head, count).map((b): [string, unknown] => ['starknet_getBlockWithTxHashes', [{ block_number: b }]]),
    ['starknet_blockNumber', []],
  ];
}

/** The networks an overview path shows and how many blocks each (undefined: the path is no overview). */
export function overviewOf(path: string, names: readonly string[]): { names: string[]; count: number } | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] !== 'explorer' || parts.length === 1) return { names: [...names], count: 10 };
  if (parts.length === 2 && names.includes(parts[1]!)) return { names: [parts[1]!], count: 25 };
  return undefined;
}

/** The first view's reads and their answers, by network, as the server puts them in the page. */
export type FirstData = Record<string, { head: number; calls: Calls; answers: { id: number; result?: unknown; error?: unknown }[] }>;
