/** The revert reason geth's abi.UnpackRevert gives: Error(string) and Panic(uint256) only (custom errors: none). */
import { decodeRevertReason } from '../exec/call.js';
import { plainHex } from '../../../hex.js';

const ERROR_SELECTOR = '08c379a0';
const PANIC_SELECTOR = '4e487b71';

export function decodeGethRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = plainHex(data.subarray(0, 4));
  return selector === ERROR_SELECTOR || selector === PANIC_SELECTOR ? decodeRevertReason(data) : undefined;
}
