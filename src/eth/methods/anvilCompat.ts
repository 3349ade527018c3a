/**
 * The anvil release whose answers devgate's dev surface follows: web3_clientVersion starts `anvil/v<this>` so that
 * hardhat-network-helpers (which accept a client starting `hardhatnetwork`, `anvil` or `zksync`) drive devgate, and
 * anvil_metadata gives it as clientVersion. Checked against the anvil binary of the @foundry-rs/anvil dev dependency.
 */
import { VERSION } from '../../version.js';

export const ANVIL_COMPAT_VERSION = '1.7.1';

/** web3_clientVersion with the dev methods served: `anvil/v1.7.1/devgate/<version>` (anvil's own is `anvil/v1.7.1`). */
export const DEV_CLIENT_VERSION = `anvil/v${ANVIL_COMPAT_VERSION}/devgate/${VERSION}`;

/** web3_clientVersion without dev methods (the hosted gateway's face): `devgate/<version>`. */
export const HOSTED_CLIENT_VERSION = `devgate/${VERSION}`;
