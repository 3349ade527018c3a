/**
 * Predeploys: Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11 and the CREATE2 deployer at
 * 0x4e59b44847b379578588920ca78fbf26c0b4956c are on the dev network and the shipped mainnet, with their real code, so
 * viem's `multicall` works with viem's own chain definitions (`mainnet`; `foundry`, which names no multicall3, with
 * its address) and CREATE2 deployments land where viem computes. Before: "aggregate3 returned no data".
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { concat, createPublicClient, getContractAddress, http, pad, parseAbi, toHex, type Hex } from 'viem';
import { foundry, mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multicall3Runtime } from '../../../../../scripts/predeploys.js';
import { CREATE2_DEPLOYER_CODE, MULTICALL3_CODE } from '../../../../../src/eth/engine/build/predeployCode.js';
import { start, type Gateway } from '../../../../../src/index.js';
import { call } from '../../../../support/http.js';

const MAINNET = fileURLToPath(new URL('../../../../../chains/mainnet.json', import.meta.url));
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
const CREATE2 = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
// Multicall3's own getters (viem's multicall3Abi carries only aggregate3 and a few others).
const multicall3Abi = parseAbi([
  'function getChainId() view returns (uint256)',
  'function getBlockNumber() view returns (uint256)',
  'function getEthBalance(address) view returns (uint256)',
]);
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [MAINNET], bare: 'dev' });
});
afterAll(() => gw?.stop());

const chainIdAndBlock = [
  { address: MULTICALL3, abi: multicall3Abi, functionName: 'getChainId' },
  { address: MULTICALL3, abi: multicall3Abi, functionName: 'getBlockNumber' },
] as const;

describe('predeploys', () => {
  it("viem's multicall with viem's mainnet chain works on the shipped mainnet", async () => {
    const client = createPublicClient({ chain: mainnet, transport: http(gw.url('mainnet')) });
    const [chainId, block] = await client.multicall({ contracts: chainIdAndBlock, allowFailure: false });
    expect(chainId).toBe(1n);
    expect(block).toBe(await client.getBlockNumber());
  });

  it("viem's multicall with viem's foundry chain and Multicall3's address works on the dev network", async () => {
    const client = createPublicClient({ chain: foundry, transport: http(gw.bareUrl()) });
    const [chainId, balance] = await client.multicall({
      contracts: [chainIdAndBlock[0], { address: MULTICALL3, abi: multicall3Abi, functionName: 'getEthBalance', args: [ACCOUNT0] }],
      multicallAddress: MULTICALL3,
      allowFailure: false,
    });
    expect(chainId).toBe(31337n);
    expect(balance).toBe(await client.getBalance({ address: ACCOUNT0 }));
  });

  it('the CREATE2 deployer deploys at the address viem computes', async () => {
    const url = gw.bareUrl();
    const salt = pad(toHex(7));
    // Init code returning a one-byte runtime (0x2a).
    const bytecode: Hex = '0x602a60005360016000f3';
    const hash = (await call(url, 'eth_sendTransaction', [{ from: ACCOUNT0, to: CREATE2, data: concat([salt, bytecode]), gas: '0x30d40' }])).result;
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).result.status).toBe('0x1');
    const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2, salt, bytecode });
    expect((await call(url, 'eth_getCode', [address, 'latest'])).result).toBe('0x2a');
  });

  it('the code is the real one: Multicall3 as its presigned deployment creates it, on both networks', async () => {
    expect(MULTICALL3_CODE).toBe(await multicall3Runtime());
    for (const url of [gw.bareUrl(), gw.url('mainnet')]) {
      expect((await call(url, 'eth_getCode', [MULTICALL3, 'latest'])).result).toBe(MULTICALL3_CODE);
      expect((await call(url, 'eth_getCode', [CREATE2, 'latest'])).result).toBe(CREATE2_DEPLOYER_CODE);
    }
  });

  const anvilBin = (() => {
    try {
      return createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
    } catch {
      return undefined;
    }
  })();

  it.skipIf(anvilBin === undefined || !existsSync(anvilBin ?? ''))('the CREATE2 deployer has the code a running anvil 1.7.1 has there', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const anvil = spawn(anvilBin!, ['--port', String(port), '--host', '127.0.0.1', '--silent'], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => anvil.once('exit', () => resolve()));
    try {
      const url = `http://127.0.0.1:${port}/`;
      let code: unknown;
      for (let i = 0; i < 100 && code === undefined; i++) {
        code = await call(url, 'eth_getCode', [CREATE2, 'latest']).then(
          (r) => r.result,
          () => new Promise((resolve) => setTimeout(() => resolve(undefined), 50)),
        );
      }
      expect(code).toBe(CREATE2_DEPLOYER_CODE);
    } finally {
      anvil.kill('SIGTERM');
      await exited;
    }
  });
});
