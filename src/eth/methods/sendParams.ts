/** The transaction request of eth_sendTransaction / eth_signTransaction: a call object whose `from` is required. */
import { InvalidArgument } from '../../errors.js';
import type { Decoder } from '../../rpc/params.js';
import type { SendRequest } from '../engine/wallet/fill.js';
import { callObject } from '../params.js';

export const sendObject: Decoder<SendRequest> = (value) => {
  const req = callObject(value);
  if (req.from === undefined) throw new InvalidArgument('"from": missing (the account to send from)');
  return req as SendRequest;
};
