/**
 * Dump and load at the level of a gateway: every network's dump in one state file (`--dump-state`, `gw.dumpState()`),
 * one network's (`anvil_dumpState`), and loading any state input into the networks it names (`--load-state`,
 * `anvil_loadState`, `gw.loadState()`). A load decodes and checks every section before it changes any network, so a
 * bad file is refused whole.
 */
import { DumpError } from './dumpError.js';
import type { KindState } from './kindState.js';
import type { NetworkKind } from '../networkTypes.js';
import { encodeStateFile, readStateInput, type StateSection, unzipStateInput } from './stateFile.js';

/**
 * A network as dump and load see it: name, kind, engine, and its kind's part in dump and load (which alone knows the
 * engine's type: src/persist/kindState.ts). The gateway gives each network's from its kind (src/kinds.ts, stateNetwork).
 */
export interface StateNetwork {
  readonly name: string;
  readonly kind: NetworkKind;
  readonly engine: unknown;
  readonly state: KindState;
}

/** One line per network a load changed, for the CLI and the logs. */
export type LoadReport = readonly string[];

async function section(n: StateNetwork): Promise<StateSection> {
  return { name: n.name, kind: n.kind, bytes: await n.state.dump(n.engine, n.name) };
}

/** A state file of every network (each eth network dumped on its writer: no write is half seen). */
export async function dumpGateway(networks: readonly StateNetwork[]): Promise<Buffer> {
  const sections: StateSection[] = [];
  for (const n of networks) sections.push(await section(n));
  return encodeStateFile(sections);
}

/** A text that changes whenever the gateway's state file would (a rollup network's dump is small: its checksum). */
export function gatewayFingerprint(networks: readonly StateNetwork[]): string {
  return JSON.stringify(networks.map((n) => n.state.fingerprint(n.engine)));
}

/** A state file of one network. */
export async function dumpNetwork(n: StateNetwork): Promise<Buffer> {
  return encodeStateFile([await section(n)]);
}

/** A network and its section, decoded and checked against its engine. */
type Planned = { readonly n: StateNetwork; readonly dump: unknown };

/**
 * Loads a state input (devgate's state file or anvil's JSON, gzip'd or not) into `networks`. With `into`, only that
 * network: a file's section of the same name, or the file's only section of its kind; anvil's accounts go to `into`,
 * else to the first eth network. Throws DumpError, having changed nothing, for anything unsound.
 */
export async function loadGateway(networks: readonly StateNetwork[], input: Uint8Array, into?: string, anvilRefused?: string): Promise<LoadReport> {
  const parsed = readStateInput(await unzipStateInput(input));
  if (parsed.kind === 'anvil' && anvilRefused !== undefined) throw new DumpError(anvilRefused);
  if (parsed.kind === 'anvil') {
    const target = networks.find((n) => n.state.anvil !== undefined && (into === undefined || n.name === into));
    if (target === undefined)
      throw new DumpError(into === undefined ? 'no eth network to load an anvil state into' : `network ${JSON.stringify(into)} is not an eth network`);
    const s = parsed.state;
    await target.state.anvil!(target.engine, s);
    return [
      `${target.name}: ${s.accounts.length} accounts of an anvil state file put into head's state (its ${s.blocks} blocks and ${s.transactions} transactions are not replayed)`,
    ];
  }
  const plan: Planned[] = [];
  if (into !== undefined) {
    const n = networks.find((x) => x.name === into)!;
    const same = parsed.sections.filter((s) => s.name === into);
    const ofKind = parsed.sections.filter((s) => s.kind === n.kind);
    const pick = same.length === 1 ? same[0]! : ofKind.length === 1 ? ofKind[0]! : undefined;
    if (pick === undefined)
      throw new DumpError(
        `the state file holds no single dump for network ${JSON.stringify(into)} (it holds ${parsed.sections.map((s) => s.name).join(', ') || 'none'})`,
      );
    plan.push(decodeFor(n, pick));
  } else {
    for (const s of parsed.sections) {
      const n = networks.find((x) => x.name === s.name);
      if (n === undefined)
        throw new DumpError(
          `the state file holds network ${JSON.stringify(s.name)}, which this gateway does not serve (it serves ${networks.map((x) => x.name).join(', ')})`,
        );
      plan.push(decodeFor(n, s));
    }
  }
  const report: string[] = [];
  for (const p of plan) report.push(`${p.n.name}: ${await p.n.state.load(p.n.engine, p.dump)}`);
  return report;
}

function decodeFor(n: StateNetwork, s: StateSection): Planned {
  if (s.kind !== n.kind)
    throw new DumpError(`the state file's ${s.kind} dump ${JSON.stringify(s.name)} cannot load into ${n.kind} network ${JSON.stringify(n.name)}`);
  return { n, dump: n.state.decode(n.engine, s.bytes, n.name) };
}
