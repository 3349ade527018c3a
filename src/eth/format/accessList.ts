/** Access lists (EIP-2930) on the wire: `[{ address, storageKeys }]`. */
import type { AccessListBytes } from '@ethereumjs/tx';
import { bytesHex } from '../../hex.js';

export interface WireAccessListEntry {
  address: string;
  storageKeys: string[];
}

export function formatAccessList(list: AccessListBytes): WireAccessListEntry[] {
  return list.map(([address, keys]) => ({ address: bytesHex(address), storageKeys: keys.map(bytesHex) }));
}
