/**
 * Writes the shipped seeds chains/mainnet.json and chains/sepolia.json, deterministically (same
 * output on every run). They are plain devgate seeds; this script only saves typing out hundreds
 * of blocks. Run: npx tsx scripts/make-chain-seeds.ts
 *
 * mainnet (chain id 1, osaka, 300 blocks): the Token (ERC-20, Transfer events to 150 holders),
 * StorageLayout (plain, packed, mapping, nested mapping and array slots set), Reverter (mined
 * reverts with Error(string), a custom error and panics), Emitter, SimpleStore deployments by
 * several accounts, ETH transfers of types 0, 1 and 2, and 4 pending transactions.
 * sepolia (chain id 11155111, osaka, 40 blocks): a smaller mix of the same.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { deriveDevAccounts } from '../src/eth/engine/build/accounts.js';

type Tx = Record<string, unknown>;
interface Block {
  transactions: Tx[];
}

/** The first 10 dev accounts of the default `test test ... junk` mnemonic (anvil's and hardhat's). */
const DEV = deriveDevAccounts('test test test test test test test test test test test junk', 10).map((a) => a.address.toString());

/** A deterministic address that nobody holds a key for (a token holder, a transfer target). */
function holder(tag: string, i: number): string {
  const h = keccak_256(new TextEncoder().encode(`devgate/${tag}/${i}`));
  return '0x' + Buffer.from(h.slice(12)).toString('hex');
}

const ETHER = 10n ** 18n;
const gwei = (n: number) => `0x${(BigInt(n) * 10n ** 9n).toString(16)}`;
const wei = (n: bigint) => `0x${n.toString(16)}`;

/** An ETH transfer of type 0, 1 or 2 (cycling), from a dev account to a dev account or a fresh address. */
function transfer(i: number): Tx {
  const from = 1 + (i % 9);
  const to = i % 3 === 0 ? holder('eth', i) : DEV[(from + 1 + (i % 7)) % 10];
  const value = wei((BigInt(i % 50) + 1n) * (ETHER / 100n));
  switch (i % 3) {
    case 0:
      return { from, to, value, type: 0, gasPrice: gwei(3) };
    case 1:
      return { from, to, value, type: 1, gasPrice: gwei(2), accessList: [{ address: to, storageKeys: [] }] };
    default:
      return { from, to, value, type: 2, maxFeePerGas: gwei(4), maxPriorityFeePerGas: gwei(1) };
  }
}

const tokenTransfer = (to: string, amount: bigint, from = 0): Tx => ({
  from,
  to: '@token',
  artifact: 'Token',
  function: 'transfer',
  args: [to, wei(amount)],
});

const deployments: Tx[] = [
  { artifact: 'Token', label: 'token' },
  { artifact: 'StorageLayout', label: 'layout' },
  { artifact: 'Reverter', label: 'reverter' },
  { artifact: 'Emitter', label: 'emitter' },
];

/** StorageLayout calls that fill every kind of slot (beyond what its constructor set). */
function layoutCalls(): Tx[] {
  const call = (fn: string, args: unknown[], from = 0): Tx => ({ from, to: '@layout', artifact: 'StorageLayout', function: fn, args });
  return [
    call('setA', [4242]),
    call('setXY', [7, 9]),
    call('setOwner', [DEV[1]]),
    call('setBalance', [DEV[1], 100]),
    call('setBalance', [DEV[2], 200]),
    call('setBalance', [holder('layout', 0), '0xffffffffffffffffffffffffffffffff']),
    call('setGrid', [5, 6, 56]),
    call('pushItem', [40]),
    call('setItem', [0, 11]),
  ];
}

/** Transactions that are mined and fail (status 0): Error(string), a custom error, panics. */
function failingCalls(k: number): Tx[] {
  const call = (fn: string, args: unknown[]): Tx => ({ from: 3, to: '@reverter', artifact: 'Reverter', function: fn, args, gas: 100000 });
  const all = [call('revertWithMessage', [`mined revert ${k}`]), call('revertWithCustomError', [k]), call('panicAssert', []), call('panicDivisionByZero', [k])];
  return [all[k % all.length]!];
}

function mainnet(): unknown {
  const blocks: Block[] = [{ transactions: deployments }, { transactions: layoutCalls() }];
  const HOLDERS = 150;
  let holderIndex = 0;
  let transfers = 0;
  for (let b = 2; b < 300; b++) {
    const txs: Tx[] = [];
    txs.push(transfer(transfers++));
    // Token: account 0 pays a new holder in most blocks; holders come back for a second payment.
    if (b % 4 !== 3) txs.push(tokenTransfer(holder('token', holderIndex++ % HOLDERS), BigInt(1 + (b % 97)) * ETHER));
    if (b % 25 === 5) txs.push(tokenTransfer(DEV[4]!, 5000n * ETHER), tokenTransfer(DEV[5]!, 20n * ETHER, 4));
    if (b % 10 === 7) txs.push(...failingCalls(Math.floor(b / 10)));
    if (b % 10 === 3) txs.push({ from: 2, to: '@reverter', artifact: 'Reverter', function: 'increment', args: [] });
    if (b % 15 === 9) txs.push({ from: 5, to: '@emitter', artifact: 'Emitter', function: 'emitMany', args: [3] });
    if (b % 50 === 20) txs.push({ from: 6 + (Math.floor(b / 50) % 3), artifact: 'SimpleStore' });
    if (b % 33 === 0) txs.push({ from: 7, data: '0x600a600c600039600a6000f3602a60005260206000f3' });
    blocks.push({ transactions: txs });
  }
  return {
    $schema: './seed.schema.json',
    name: 'mainnet',
    kind: 'eth',
    chainId: 1,
    hardfork: 'osaka',
    genesis: { timestamp: '0x6553f100', gasLimit: '0x1c9c380', baseFeePerGas: '0x3b9aca00', extraData: '0x646576676174652d6d61696e6e6574' },
    alloc: {},
    // Mainnet has both: viem's `mainnet` chain multicalls through Multicall3.
    predeploys: ['multicall3', 'create2Deployer'],
    blocks,
    pending: [
      transfer(10_000),
      transfer(10_001),
      tokenTransfer(holder('token', HOLDERS + 1), 7n * ETHER),
      { from: 2, to: '@layout', artifact: 'StorageLayout', function: 'setA', args: [777] },
    ],
  };
}

function sepolia(): unknown {
  const blocks: Block[] = [{ transactions: [deployments[0]!, deployments[2]!] }];
  for (let b = 1; b < 40; b++) {
    const txs: Tx[] = [transfer(b)];
    if (b % 2 === 1) txs.push(tokenTransfer(holder('sepolia-token', b), BigInt(b) * ETHER));
    if (b === 13) txs.push(...failingCalls(0));
    blocks.push({ transactions: txs });
  }
  return {
    $schema: './seed.schema.json',
    name: 'sepolia',
    kind: 'eth',
    chainId: 11155111,
    hardfork: 'osaka',
    genesis: { timestamp: '0x6553f100', gasLimit: '0x2255100', baseFeePerGas: '0x3b9aca00' },
    alloc: {},
    blocks,
    pending: [transfer(20_000)],
  };
}

function write(name: string, seed: unknown): void {
  const file = fileURLToPath(new URL(`../chains/${name}.json`, import.meta.url));
  writeFileSync(file, compact(seed) + '\n');
  console.log(`wrote ${file}`);
}

/** JSON with one transaction per line: readable, and diffs stay small. */
function compact(seed: unknown): string {
  const s = seed as Record<string, unknown>;
  const lines: string[] = ['{'];
  const keys = Object.keys(s);
  keys.forEach((k, i) => {
    const comma = i < keys.length - 1 ? ',' : '';
    if (k === 'blocks') {
      const blocks = s.blocks as Block[];
      lines.push('  "blocks": [');
      blocks.forEach((b, j) => {
        lines.push('    { "transactions": [');
        b.transactions.forEach((t, n) => {
          lines.push(`      ${JSON.stringify(t)}${n < b.transactions.length - 1 ? ',' : ''}`);
        });
        lines.push(`    ] }${j < blocks.length - 1 ? ',' : ''}`);
      });
      lines.push(`  ]${comma}`);
    } else if (k === 'pending') {
      const txs = s.pending as Tx[];
      lines.push('  "pending": [');
      txs.forEach((t, n) => {
        lines.push(`    ${JSON.stringify(t)}${n < txs.length - 1 ? ',' : ''}`);
      });
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(s[k])}${comma}`);
    }
  });
  lines.push('}');
  return lines.join('\n');
}

write('mainnet', mainnet());
write('sepolia', sepolia());
