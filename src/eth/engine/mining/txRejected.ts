import { DevgateError } from '../../../errors.js';

/** A transaction the pool refuses (JSON-RPC -32000, with geth's message); nothing of it stays behind. */
export class TxRejected extends DevgateError {
  override name = 'TxRejected';
}
