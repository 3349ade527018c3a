/**
 * anvil's `--code-size-limit N` / `--disable-code-size-limit` (seed field `codeSizeLimit`): the EIP-170 limit on a
 * contract's code and, as revm derives it, twice that on init code (EIP-3860). @ethereumjs reads both from
 * `common.param('maxCodeSize' | 'maxInitCodeSize')` (the EVM, transaction decoding, devgate's pool check), so the
 * chain's Common answers the limit asked for; copies of it (another hardfork, a VM's) keep the override.
 */
import { Common } from '@ethereumjs/common';

/** A contract size limit: bytes, or 'unlimited'. */
export type CodeSizeLimit = number | 'unlimited';

/** What 'unlimited' stands for: no contract can be this large. */
const NO_LIMIT = BigInt(Number.MAX_SAFE_INTEGER);

/** Makes `common` (and its copies) hold contracts to `limit` bytes of code and twice that of init code. */
export function applyCodeSizeLimit(common: Common, limit: CodeSizeLimit | undefined): Common {
  if (limit === undefined) return common;
  const code = limit === 'unlimited' ? NO_LIMIT : BigInt(limit);
  const initCode = limit === 'unlimited' ? NO_LIMIT : 2n * BigInt(limit);
  const param = Common.prototype.param;
  // An own property, as prepareCommon's: Common.copy() keeps own properties.
  common.param = function (this: Common, name: string): bigint {
    if (name === 'maxCodeSize') return code;
    if (name === 'maxInitCodeSize') return initCode;
    return param.call(this, name);
  };
  return common;
}
