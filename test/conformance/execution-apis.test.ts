/**
 * ethereum/execution-apis's conformance fixtures (geth's recorded answers; test/fixtures/execution-apis, CC0),
 * replayed over HTTP against the hive test chain imported through `gethGenesis` + `rlpChain` (seed.json): every
 * response must equal geth's exactly, ids included, unless differences.ts lists the fixture with its reason, or
 * its method is not served yet (then each of its requests must answer -32601, so the list cannot rot).
 *
 * The fixtures were recorded in one run of one geth, method after method in rpctestgen's order (ORDER below): the
 * pool methods at the end see the transactions that eth_sendRawTransaction and testing_buildBlockV1 sent before
 * them. So fixtures are replayed in that order on one gateway that does not mine (the seed turns automine off),
 * with `safe` and `finalized` at head, as the hive client's forkchoice (headfcu.json) sets them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { gethCommon, resolveMergeBlock } from '../../src/eth/engine/build/geth.js';
import { parseGethGenesis } from '../../src/eth/engine/build/import.js';
import { prepareCommon } from '../../src/eth/engine/exec/common.js';
import { ethMethods } from '../../src/eth/methods/index.js';
import { UNLIMITED } from '../eth/methods/seed.js';
import { DIFFERENCES, NOT_SERVED, type Difference, type Reason } from './differences.js';
import { blobParams, forkAt } from './forkSchedule.js';
import { FIXTURES, loadFixtures, type Fixture } from './io.js';
import { differingPaths, replay, same, type Round } from './replay.js';

const SEED = fileURLToPath(new URL('./seed.json', import.meta.url));

/** rpctestgen's AllMethods (execution-apis tools/testgen/generators.go): the order the fixtures were recorded in. */
const ORDER = [
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getProof',
  'eth_chainId',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getStorageValues',
  'eth_call',
  'eth_simulateV1',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionCount',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getBlockReceipts',
  'eth_sendRawTransaction',
  'eth_syncing',
  'eth_feeHistory',
  'eth_getLogs',
  'debug_getRawHeader',
  'debug_getRawBlock',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'debug_traceTransaction',
  'debug_traceBlockByNumber',
  'debug_traceBlockByHash',
  'eth_baseFee',
  'eth_blobBaseFee',
  'eth_config',
  'eth_capabilities',
  'net_version',
  'testing_buildBlockV1',
  'txpool_status',
  'txpool_content',
  'txpool_contentFrom',
];

const fixtures = loadFixtures();
const methods = [...ORDER.filter((m) => fixtures.has(m)), ...[...fixtures.keys()].filter((m) => !ORDER.includes(m))];
const table = ethMethods();
const json = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

const tally = { passing: 0, listed: new Map<Reason, number>(), notServed: 0 };

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('hive');
});
afterAll(async () => {
  await gw?.stop();
  const listed = [...tally.listed].map(([reason, n]) => `${n} ${reason}`).join(', ') || '0';
  const notServed = [...NOT_SERVED.keys()].filter((m) => fixtures.has(m)).length;
  console.log(
    `execution-apis fixtures: ${tally.passing} pass, listed differences: ${listed}; not served yet: ${tally.notServed} fixtures of ${notServed} methods`,
  );
});

describe('the lists', () => {
  it('name fixtures and methods that exist; a listed fixture has requests of served methods', () => {
    const byId = new Map([...fixtures.values()].flat().map((f) => [f.id, f]));
    for (const id of DIFFERENCES.keys()) {
      const fixture = byId.get(id);
      expect(fixture, `differences.ts lists ${id}, which is no fixture`).toBeDefined();
      const calls = fixture!.exchanges.map((e) => JSON.parse(e.request).method as string);
      expect(calls.some(served), `${id}: none of its requests is of a served method; list it once one is`).toBe(true);
    }
    for (const method of NOT_SERVED.keys()) expect(fixtures.has(method), `NOT_SERVED names ${method}, which has no fixtures`).toBe(true);
  });

  it('every method with fixtures is in the dispatch table, or on NOT_SERVED and not in it', () => {
    for (const method of fixtures.keys()) {
      const served = table.get(method) !== undefined;
      expect(served || NOT_SERVED.has(method), `${method} is neither served nor on NOT_SERVED`).toBe(true);
      expect(served && NOT_SERVED.has(method), `${method} is served now: delete its line in NOT_SERVED (differences.ts)`).toBe(false);
    }
  });
});

describe('the hive test chain', () => {
  const env = json('forkenv.json') as Record<string, string>;
  const fcu = json('headfcu.json');

  it('imports with the chain id of forkenv.json and the head of headfcu.json', async () => {
    expect(BigInt(await call('eth_chainId'))).toBe(BigInt(env.HIVE_CHAIN_ID!));
    expect(await call('net_version')).toBe(env.HIVE_NETWORK_ID);
    const head = await call('eth_getBlockByNumber', ['latest', false]);
    expect(head.hash).toBe(fcu.params[0].headBlockHash);
    expect(head.number).toBe('0x' + Number(fcu.id.replace('fcu', '')).toString(16));
    for (const tag of ['safe', 'finalized']) expect((await call('eth_getBlockByNumber', [tag, false])).hash).toBe(fcu.params[0][`${tag}BlockHash`]);
  });

  // The built project sets DEVGATE_CACHE_DIR=off (no cache); the restored one a fresh directory.
  const cacheDir = process.env.DEVGATE_CACHE_DIR === 'off' ? undefined : process.env.DEVGATE_CACHE_DIR;
  it.runIf(cacheDir !== undefined)('is served restored from its chain image in the restored project', () => {
    expect(readdirSync(cacheDir!).some((f) => f.startsWith('hive-') && f.endsWith('.chain'))).toBe(true);
  });

  it('runs each block under the fork forkenv.json schedules, with its blob parameters', async () => {
    // The schedule as a gethGenesis seed's import reads it (parseGethGenesis, resolveMergeBlock, gethCommon, readied by
    // prepareCommon as EthChain does; each block then runs under a copy set to its number and time, EthChain.commonAt),
    // over the served blocks' headers: no second import of the chain.
    const genesis = parseGethGenesis(json('genesis.json'), 'genesis.json');
    const head = Number(await call('eth_blockNumber'));
    const headers = await Promise.all(Array.from({ length: head + 1 }, (_, n) => call('eth_getBlockByNumber', ['0x' + n.toString(16), false])));
    const mergeBlock = resolveMergeBlock(
      genesis,
      headers.slice(1).map((h) => BigInt(h.difficulty)),
    );
    expect(mergeBlock).toBe(BigInt(env.HIVE_MERGE_BLOCK_ID!));
    const schedule = prepareCommon(gethCommon(genesis, { mergeBlock }));
    const seen = new Set<string>();
    for (const h of headers) {
      const [number, timestamp] = [BigInt(h.number), BigInt(h.timestamp)];
      const common = schedule.copy();
      common.setHardforkBy({ blockNumber: number, timestamp });
      const fork = forkAt(env, number, timestamp);
      seen.add(fork);
      // geth's mergeNetsplitBlock is a fork of its own in @ethereumjs, at the merge block, with paris's rules.
      const named = common.hardfork() === 'mergeNetsplitBlock' ? 'paris' : common.hardfork();
      expect(named, `block ${number} (time ${timestamp})`).toBe(fork);
      const blob = blobParams(env, fork);
      if (blob !== undefined) expect(common.getBlobGasSchedule(), `blob schedule of ${fork}`).toEqual(blob);
    }
    // The chain reaches every fork of the schedule (the fork tests below rely on it).
    expect([...seen]).toEqual([
      'homestead',
      'tangerineWhistle',
      'spuriousDragon',
      'byzantium',
      'constantinople',
      'petersburg',
      'istanbul',
      'muirGlacier',
      'berlin',
      'london',
      'arrowGlacier',
      'grayGlacier',
      'paris',
      'shanghai',
      'cancun',
      'prague',
      'osaka',
      'bpo1',
      'bpo2',
    ]);
  });
});

/** The method a request of a round calls. */
const methodOf = (round: Round): string => JSON.parse(round.exchange.request).method;
/** Whether devgate serves a method (the gateway's dispatch table for eth networks). */
const served = (method: string): boolean => !NOT_SERVED.has(method) && table.get(method) !== undefined;

for (const method of methods) {
  const files = fixtures.get(method)!;
  const notServed = NOT_SERVED.get(method);
  describe(method, () => {
    if (notServed !== undefined) {
      it(`is not served yet (${notServed}): ${files.length} fixtures skipped, each of its requests answers -32601`, async () => {
        for (const fixture of files) {
          const rounds = await replay(url, fixture);
          for (const round of rounds.filter((r) => methodOf(r) === method)) {
            expect(round.actual, `${fixture.id}: ${method} answers now: delete its line in NOT_SERVED (differences.ts)`).toEqual({
              jsonrpc: '2.0',
              id: JSON.parse(round.exchange.request).id,
              error: { code: -32601, message: `the method ${method} does not exist/is not available` },
            });
          }
          // Requests of served methods in these fixtures (e.g. the sends of testing_buildBlockV1) are held to geth's answers.
          const others = rounds.filter((r) => served(methodOf(r)));
          if (others.length > 0) hold(fixture, others);
        }
        tally.notServed += files.length;
      });
      return;
    }
    for (const fixture of files) {
      it(fixture.id.slice(method.length + 1), async () => {
        const listed = hold(fixture, await replay(url, fixture));
        if (listed === undefined) tally.passing++;
        else tally.listed.set(listed.reason, (tally.listed.get(listed.reason) ?? 0) + 1);
      });
    }
  });
}

/** Holds the rounds of a fixture to geth's answers, or to its entry in DIFFERENCES (which it gives back). */
function hold(fixture: Fixture, rounds: readonly Round[]): Difference | undefined {
  const listed = DIFFERENCES.get(fixture.id);
  if (listed === undefined) {
    for (const round of rounds) {
      expect(
        round.actual,
        `${fixture.id}${fixture.speconly ? ' (speconly)' : ''} differs from geth:\n  ${differingPaths(round.exchange.response, round.actual).join('\n  ')}`,
      ).toStrictEqual(round.exchange.response);
    }
    return undefined;
  }
  expect(rounds.every(same), `${fixture.id} now equals geth's answer: delete its entry in DIFFERENCES (differences.ts)`).toBe(false);
  for (const round of rounds) {
    const expected = round.exchange.response as { id: unknown; jsonrpc: string };
    if (listed.patch === undefined) {
      expect(round.actual).toMatchObject({ jsonrpc: expected.jsonrpc, id: expected.id });
      continue;
    }
    const patched = listed.patch(structuredClone(round.actual));
    expect(
      patched,
      `${fixture.id} (listed: ${listed.why}) differs beyond its listed difference:\n  ${differingPaths(expected, patched).join('\n  ')}`,
    ).toStrictEqual(expected);
  }
  return listed;
}

/** One call's result. */
async function call(method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: any }).result;
}
