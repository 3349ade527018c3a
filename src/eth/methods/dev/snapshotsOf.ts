/** The impersonations of a network's context (its node's). */
import type { Impersonation } from '../../engine/wallet/impersonation.js';
import type { EthContext } from '../../context.js';

export function impersonationOf(ctx: EthContext): Impersonation {
  return ctx.node.impersonation;
}
