/**
 * The chain of simulated blocks as geth's simulator.sanitizeChain makes it: numbers and timestamps default to the
 * previous ones plus 1 and plus 12, must strictly increase (-38020, -38021), and a gap in numbers is filled with
 * empty blocks 12 seconds apart; at most 256 blocks past the base (-38026).
 */
import { SimulationError } from '../../../errors.js';
import type { SimBlockInput } from './types.js';

export const MAX_SIMULATE_BLOCKS = 256n;
const TIMESTAMP_INCREMENT = 12n;

/** A block to simulate, with its number and time settled. */
export interface SettledBlock extends SimBlockInput {
  readonly number: bigint;
  readonly time: bigint;
}

export function sanitizeChain(base: { number: bigint; timestamp: bigint }, blocks: readonly SimBlockInput[]): SettledBlock[] {
  const out: SettledBlock[] = [];
  let prevNumber = base.number;
  let prevTime = base.timestamp;
  for (const block of blocks) {
    const number = block.blockOverrides?.number ?? prevNumber + 1n;
    if (number <= prevNumber) throw new SimulationError(-38020, `block numbers must be in order: ${number & 0xffffffffffffffffn} <= ${prevNumber}`);
    if (number - base.number > MAX_SIMULATE_BLOCKS) throw new SimulationError(-38026, 'too many blocks');
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT;
      out.push({ calls: [], number: n, time: prevTime });
    }
    prevNumber = number;
    let time: bigint;
    if (block.blockOverrides?.time === undefined) time = prevTime + TIMESTAMP_INCREMENT;
    else {
      time = block.blockOverrides.time;
      if (time <= prevTime) throw new SimulationError(-38021, `block timestamps must be in order: ${time} <= ${prevTime}`);
    }
    prevTime = time;
    out.push({ ...block, number, time });
  }
  return out;
}
