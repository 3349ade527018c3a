/** The `devgate` command: serves the shipped chains (or the given ones) until SIGINT/SIGTERM. */
import { parseArgs } from 'node:util';
import { start, VERSION } from './index.js';

const HELP = `devgate ${VERSION}: a local devnet that emulates a hosted blockchain node gateway

Usage: devgate [options]

Options:
  -p, --port N      port to listen on (default 8545; 0 picks a free port)
  -H, --host H      address to bind (default 127.0.0.1)
  -c, --chain FILE  a seed file to serve; repeat for several networks
                    (default: the shipped chains in chains/)
  -h, --help        show this help
  -v, --version     print the version

Each network is served at http://HOST:PORT/<network>/v3/<API_KEY> (HTTP JSON-RPC)
and ws://HOST:PORT/<network>/ws/v3/<API_KEY> (WebSocket).`;

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string', short: 'H' },
        chain: { type: 'string', short: 'c', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`devgate: ${(err as Error).message}\nRun devgate --help for the options.`);
    return 2;
  }
  if (args.help) return console.log(HELP), 0;
  if (args.version) return console.log(VERSION), 0;
  const port = args.port === undefined ? 8545 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`devgate: --port must be a whole number from 0 to 65535, got ${JSON.stringify(args.port)}`);
    return 2;
  }
  const gw = await start({ port, host: args.host ?? '127.0.0.1', chains: args.chain });
  for (const n of gw.networks) {
    console.log(`${n.name} (${n.kind}, chain id ${n.chainId})`);
    console.log(`  HTTP       ${gw.url(n.name, '<API_KEY>')}`);
    console.log(`  WebSocket  ${gw.wsUrl(n.name, '<API_KEY>')}`);
  }
  console.log(`Listening on ${gw.host}:${gw.port}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await gw.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`devgate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
