/**
 * What the bench measures: each figure makes distinct request bodies from a PRNG (random blocks,
 * transactions, holders, slots) and says how to compare an answer of devgate with anvil's.
 */
import { encodeFunctionData, toHex, type Hex } from 'viem';
import { balanceSlot, type BenchMeta } from './seed.js';

export type Rand = () => number;

export interface Figure {
  /** Short id, used by `--only` and in the JSON. */
  readonly id: string;
  /** The label of the table row. */
  readonly label: string;
  readonly transport: 'http' | 'ws';
  /** Issue 7's target for devgate/anvil: 1.0 for pure reads, 0.5 for EVM work (eth_call, eth_getProof). */
  readonly target: number;
  /** One request's params (single call) or a whole batch. */
  make(rand: Rand, meta: BenchMeta): { method: string; params: unknown[] } | { batch: { method: string; params: unknown[] }[] };
  /** The part of a result both servers must agree on (hashes of blocks differ: anvil's genesis is not devgate's). */
  digest?(result: any): unknown;
}

const BALANCE_OF = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'holder', type: 'address' }], outputs: [{ type: 'uint256' }] },
] as const;
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const int = (rand: Rand, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
/** A block with transactions: 1..head. */
const block = (rand: Rand, meta: BenchMeta) => toHex(int(rand, 1, meta.head));
const balanceOf = (meta: BenchMeta, holder: Hex) => ({
  to: meta.token,
  data: encodeFunctionData({ abi: BALANCE_OF, functionName: 'balanceOf', args: [holder] }),
});
const pad32 = (address: Hex) => `0x${address.slice(2).padStart(64, '0')}`;

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
const pickFields = (o: any, fields: readonly string[]) => (o == null ? o : Object.fromEntries(fields.map((f) => [f, lower(o[f])])));

const TX_FIELDS = [
  'hash',
  'from',
  'to',
  'nonce',
  'value',
  'input',
  'gas',
  'blockNumber',
  'transactionIndex',
  'type',
  'chainId',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'r',
  's',
  'yParity',
];
const LOG_FIELDS = ['address', 'data', 'blockNumber', 'transactionHash', 'transactionIndex', 'logIndex', 'removed'];
const logDigest = (log: any) => ({ ...pickFields(log, LOG_FIELDS), topics: (log?.topics ?? []).map(lower) });
const receiptDigest = (r: any) =>
  r == null
    ? r
    : {
        ...pickFields(r, [
          'transactionHash',
          'blockNumber',
          'transactionIndex',
          'status',
          'gasUsed',
          'cumulativeGasUsed',
          'from',
          'to',
          'contractAddress',
          'logsBloom',
          'type',
        ]),
        logs: (r.logs ?? []).map(logDigest),
      };

export const FIGURES: readonly Figure[] = [
  {
    id: 'blockNumber',
    label: 'eth_blockNumber',
    transport: 'http',
    target: 1.0,
    make: () => ({ method: 'eth_blockNumber', params: [] }),
    digest: (r) => r,
  },
  {
    id: 'blockFull',
    label: 'eth_getBlockByNumber (full txs)',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => ({ method: 'eth_getBlockByNumber', params: [block(rand, meta), true] }),
    digest: (b) =>
      b == null
        ? b
        : {
            ...pickFields(b, ['number', 'timestamp', 'gasUsed', 'gasLimit', 'logsBloom']),
            transactions: b.transactions.map((t: any) => pickFields(t, TX_FIELDS)),
          },
  },
  {
    id: 'txByHash',
    label: 'eth_getTransactionByHash',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => ({ method: 'eth_getTransactionByHash', params: [pick(rand, meta.txHashes)] }),
    digest: (t) => pickFields(t, TX_FIELDS),
  },
  {
    id: 'receipt',
    label: 'eth_getTransactionReceipt',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => ({ method: 'eth_getTransactionReceipt', params: [pick(rand, meta.txHashes)] }),
    digest: receiptDigest,
  },
  {
    id: 'blockReceipts',
    label: 'eth_getBlockReceipts',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => ({ method: 'eth_getBlockReceipts', params: [block(rand, meta)] }),
    digest: (rs) => (rs == null ? rs : rs.map(receiptDigest)),
  },
  {
    id: 'callLatest',
    label: 'eth_call balanceOf (latest)',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => ({ method: 'eth_call', params: [balanceOf(meta, pick(rand, meta.holders)), 'latest'] }),
    digest: (r) => r,
  },
  {
    id: 'callHistorical',
    label: 'eth_call balanceOf (random block)',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => ({ method: 'eth_call', params: [balanceOf(meta, pick(rand, meta.holders)), toHex(int(rand, 2, meta.head))] }),
    digest: (r) => r,
  },
  {
    id: 'proof',
    label: 'eth_getProof (random block)',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => {
      const holder = pick(rand, meta.holders);
      const at = block(rand, meta);
      // Half: the token with a holder's balance slot; half: a holder's account.
      return rand() < 0.5 ? { method: 'eth_getProof', params: [meta.token, [balanceSlot(holder)], at] } : { method: 'eth_getProof', params: [holder, [], at] };
    },
    digest: (p) =>
      p == null
        ? p
        : {
            ...pickFields(p, ['address', 'balance', 'nonce', 'codeHash', 'storageHash']),
            storageProof: (p.storageProof ?? []).map((s: any) => pickFields(s, ['key', 'value'])),
          },
  },
  {
    id: 'logsHolder',
    label: 'eth_getLogs 100 blocks, one holder',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => {
      const from = int(rand, 1, meta.head - 99);
      return {
        method: 'eth_getLogs',
        params: [{ fromBlock: toHex(from), toBlock: toHex(from + 99), address: meta.token, topics: [TRANSFER_TOPIC, null, pad32(pick(rand, meta.holders))] }],
      };
    },
    digest: (logs) => (logs == null ? logs : logs.map(logDigest)),
  },
  {
    id: 'logsAll',
    label: 'eth_getLogs 100 blocks, all transfers',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => {
      const from = int(rand, 1, meta.head - 99);
      return { method: 'eth_getLogs', params: [{ fromBlock: toHex(from), toBlock: toHex(from + 99), address: meta.token }] };
    },
    digest: (logs) => (logs == null ? logs : logs.map(logDigest)),
  },
  {
    id: 'batch10',
    label: 'batch of 10 mixed calls',
    transport: 'http',
    target: 1.0,
    make: (rand, meta) => {
      const holder = pick(rand, meta.holders);
      return {
        batch: [
          { method: 'eth_blockNumber', params: [] },
          { method: 'eth_chainId', params: [] },
          { method: 'eth_getBlockByNumber', params: [block(rand, meta), false] },
          { method: 'eth_getTransactionByHash', params: [pick(rand, meta.txHashes)] },
          { method: 'eth_getTransactionReceipt', params: [pick(rand, meta.txHashes)] },
          { method: 'eth_getBalance', params: [holder, 'latest'] },
          { method: 'eth_getTransactionCount', params: [pick(rand, meta.senders), 'latest'] },
          { method: 'eth_getCode', params: [meta.token, 'latest'] },
          { method: 'eth_getStorageAt', params: [meta.token, balanceSlot(holder), block(rand, meta)] },
          { method: 'eth_call', params: [balanceOf(meta, holder), 'latest'] },
        ],
      };
    },
  },
  {
    // Issue 17: a simulation of 3 blocks of 5 calls each (token balance reads and ETH transfers between bench
    // senders), on latest; the call results must agree (block hashes differ: the chains' genesis differ).
    id: 'simulate',
    label: 'eth_simulateV1 3 blocks x 5 calls',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => ({
      method: 'eth_simulateV1',
      params: [
        {
          blockStateCalls: Array.from({ length: 3 }, () => ({
            calls: Array.from({ length: 5 }, (_, i) => {
              const from = pick(rand, meta.senders);
              return i % 2 === 0
                ? { from, ...balanceOf(meta, pick(rand, meta.holders)) }
                : { from, to: pick(rand, meta.holders), value: toHex(int(rand, 1, 1000)) };
            }),
          })),
        },
        'latest',
      ],
    }),
    digest: (blocks) =>
      Array.isArray(blocks) ? blocks.map((b: any) => (b.calls ?? []).map((c: any) => pickFields(c, ['status', 'returnData', 'gasUsed']))) : blocks,
  },
  {
    id: 'wsBlockNumber',
    label: 'WebSocket eth_blockNumber round trip',
    transport: 'ws',
    target: 1.0,
    make: () => ({ method: 'eth_blockNumber', params: [] }),
  },
];

/** The JSON text of a request (or batch) with fresh ids, so no two bodies are equal. */
export function requestText(req: ReturnType<Figure['make']>, id: number): string {
  if ('batch' in req) return JSON.stringify(req.batch.map((r, i) => ({ jsonrpc: '2.0', id: id * 16 + i, method: r.method, params: r.params })));
  return JSON.stringify({ jsonrpc: '2.0', id, method: req.method, params: req.params });
}

/** Methods a request needs. */
export function methodsOf(req: ReturnType<Figure['make']>): string[] {
  return 'batch' in req ? [...new Set(req.batch.map((r) => r.method))] : [req.method];
}
