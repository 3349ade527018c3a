/**
 * The banner's account and contract lines, as anvil prints its "Available Accounts": for every eth network, each dev
 * account checksummed with its balance in ether, their private keys, and the address of each `@label` contract its
 * seed deployed.
 */
import { toChecksumAddress } from '@ethereumjs/util';

/** What the banner needs of a network. */
export interface BannerNetwork {
  readonly name: string;
  readonly accounts: readonly { readonly address: string; readonly privateKey: string; readonly balance: bigint }[];
  /** `@label` -> address of the contracts the seed deployed. */
  readonly labels: Readonly<Record<string, string>>;
}

/** Wei as anvil prints ether: 18 decimals, `10000.000000000000000000`. */
export function formatEther(wei: bigint): string {
  const unit = 10n ** 18n;
  return `${wei / unit}.${(wei % unit).toString().padStart(18, '0')}`;
}

/** The banner lines of one network (empty when it has neither accounts nor labelled contracts). */
export function bannerLines(n: BannerNetwork): string[] {
  const lines: string[] = [];
  if (n.accounts.length > 0) {
    lines.push(`\nAvailable accounts (${n.name})\n==================`);
    lines.push(...n.accounts.map((a, i) => `(${i}) ${toChecksumAddress(a.address)} (${formatEther(a.balance)} ETH)`));
    lines.push(`\nPrivate keys (${n.name})\n==================`, ...n.accounts.map((a, i) => `(${i}) ${a.privateKey}`));
  }
  const labels = Object.entries(n.labels);
  if (labels.length > 0) {
    lines.push(`\nContracts (${n.name})\n==================`, ...labels.map(([label, address]) => `@${label} ${toChecksumAddress(address)}`));
  }
  if (lines.length > 0) lines.push('');
  return lines;
}
