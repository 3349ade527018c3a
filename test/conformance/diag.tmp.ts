import { start } from '../../src/index.js';
import { loadFixtures } from './io.js';
import { replay, same, differingPaths } from './replay.js';
const ORDER = ['eth_blockNumber','eth_getBlockByNumber','eth_getBlockByHash','eth_getProof','eth_chainId','eth_getBalance','eth_getCode','eth_getStorageAt','eth_getStorageValues','eth_call','eth_simulateV1','eth_estimateGas','eth_createAccessList','eth_getBlockTransactionCountByNumber','eth_getBlockTransactionCountByHash','eth_getTransactionByBlockHashAndIndex','eth_getTransactionByBlockNumberAndIndex','eth_getTransactionCount','eth_getTransactionByHash','eth_getTransactionReceipt','eth_getBlockReceipts','eth_sendRawTransaction','eth_syncing','eth_feeHistory','eth_getLogs','debug_getRawHeader','debug_getRawBlock','debug_getRawReceipts','debug_getRawTransaction','debug_traceTransaction','debug_traceBlockByNumber','debug_traceBlockByHash','eth_baseFee','eth_blobBaseFee','eth_config','eth_capabilities','net_version','testing_buildBlockV1','txpool_status','txpool_content','txpool_contentFrom'];
const gw = await start({ port: 0, chains: ['test/conformance/seed.json'], cache: false, keys: { open: true, defaultPlan: 'growth' } });
const url = gw.url('hive');
const all = loadFixtures();
for (const m of all.keys()) if (!ORDER.includes(m)) console.log('NOT IN ORDER', m);
let pass = 0, fail = 0;
for (const m of ORDER) for (const f of all.get(m) ?? []) {
  const rounds = await replay(url, f);
  const bad = rounds.filter((r) => !same(r));
  if (bad.length === 0) { pass++; continue; }
  fail++;
  console.log(`FAIL ${f.id}${f.speconly ? ' (speconly)' : ''}`);
  for (const r of bad) for (const p of differingPaths(r.exchange.response, r.actual, Number(process.env.MAX ?? 6))) console.log('   ', p);
}
console.log({ pass, fail });
await gw.stop();
