/** The snapshots and impersonations of a network's context, or a clear error where a context has none (engine-only tests). */
import { DevgateError } from '../../../errors.js';
import type { Snapshots } from '../../engine/control/snapshots.js';
import type { Impersonation } from '../../engine/wallet/impersonation.js';
import type { EthContext } from '../../context.js';

export function snapshotsOf(ctx: EthContext): Snapshots {
  if (ctx.snapshots === undefined) throw new DevgateError('snapshots are not available on this network');
  return ctx.snapshots;
}

export function impersonationOf(ctx: EthContext): Impersonation {
  if (ctx.impersonation === undefined) throw new DevgateError('impersonation is not available on this network');
  return ctx.impersonation;
}
