/**
 * A check of an LMDB data file's two meta pages before LMDB opens it: LMDB trusts its file and crashes the
 * process (SIGSEGV, measured with lmdb 3.5.6) on one that is not an LMDB file, so a foreign or truncated
 * file must be refused here, with a message. Checked: magic and data version of each meta page, the page
 * size, that the newest meta page's last page and the roots of its two trees lie inside the file.
 * Damage inside the tree pages is not detected (LMDB keeps no checksums); the records devgate reads from
 * them are checked as they are decoded (hashes of blocks against the index, RLP shapes).
 *
 * Meta page (64-bit LMDB 0.9 of lmdb-js, data version 2, as measured): 24-byte page header (u16 flags at 0x12,
 * P_META = 0x08), then magic
 * (u32 0xBEEFC0DE), version (u32), address (u64), map size (u64), two 48-byte tree records (free and main:
 * u32 pad, the free tree's pad is the page size; u16 flags; u16 depth; u64 branch, leaf and overflow pages;
 * u64 entries; u64 root), last page (u64), transaction id (u64).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const P_META = 0x08;
const NO_PAGE = 0xffffffffffffffffn;

interface MetaPage {
  readonly pageSize: number;
  readonly lastPage: bigint;
  readonly txnId: bigint;
  readonly roots: readonly bigint[];
}

function readMeta(buf: Buffer): MetaPage | string {
  if (buf.length < 0xa0) return 'too short';
  if ((buf.readUInt16LE(0x12) & P_META) === 0) return 'not a meta page';
  if (buf.readUInt32LE(0x18) !== MAGIC) return 'no LMDB magic number';
  if ((buf.readUInt32LE(0x1c) & 0xffff) !== DATA_VERSION) return `LMDB data version ${buf.readUInt32LE(0x1c) & 0xffff}, not ${DATA_VERSION}`;
  const pageSize = buf.readUInt32LE(0x30);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `page size ${pageSize}`;
  return { pageSize, lastPage: buf.readBigUInt64LE(0x90), txnId: buf.readBigUInt64LE(0x98), roots: [buf.readBigUInt64LE(0x58), buf.readBigUInt64LE(0x88)] };
}

/** Why the file is not a sound LMDB data file, or undefined when its meta pages are sound. */
export function lmdbFileProblem(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined;
    const page = (at: number) => {
      const buf = Buffer.alloc(0xa0);
      return readSync(fd, buf, 0, buf.length, at) === buf.length ? buf : Buffer.alloc(0);
    };
    const first = readMeta(page(0));
    if (typeof first === 'string') return `meta page 0: ${first}`;
    const second = readMeta(page(first.pageSize));
    if (typeof second === 'string') return `meta page 1: ${second}`;
    const newest = second.txnId > first.txnId ? second : first;
    const pages = BigInt(Math.floor(size / first.pageSize));
    if (newest.lastPage >= pages) return `the file ends at page ${pages}, its meta page says it holds ${newest.lastPage + 1n} (truncated?)`;
    for (const root of newest.roots)
      if (root !== NO_PAGE && root > newest.lastPage) return `a tree's root page ${root} lies past the last page ${newest.lastPage}`;
    return undefined;
  } finally {
    closeSync(fd);
  }
}
