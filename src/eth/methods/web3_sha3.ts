import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { hexData } from '../../rpc/params.js';

/**
 * web3_sha3: the Keccak-256 hash of the given data.
 * @example {"jsonrpc":"2.0","id":1,"method":"web3_sha3","params":["0x68656c6c6f20776f726c64"]}
 *   -> "0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad"
 */
export const web3_sha3 = defineMethod({
  name: 'web3_sha3',
  params: [required('data', hexData)],
  handler: (_ctx: unknown, data) => bytesHex(keccak_256(data)),
});
