/**
 * Detects a damaged write-ahead log before SQLite replays it. SQLite's recovery reads the -wal's frames in order
 * and stops at the first whose checksum (cumulative over the log) or salt is wrong; everything after it is
 * dropped without a word, committed transactions included. After a torn write at power loss that is right (the
 * tail was never durable); after a damaged byte in the middle it silently loses results, a whole run at worst.
 * The difference is visible in the log: frames of the current generation (the header's salts) with a commit
 * mark beyond the first bad frame were committed, and would be lost. https://www.sqlite.org/fileformat.html#wal
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const HEADER = 32;
const FRAME_HEADER = 24;

export interface WalDamage {
  /** Frames in the file (whole ones). */
  readonly frames: number;
  /** 1-based index of the first frame SQLite would stop at (0: the header itself is bad). */
  readonly firstBad: number;
  /** Frames of the current generation after it that carry a commit mark: committed, and dropped by a replay. */
  readonly lostCommits: number;
}

/** SQLite's WAL checksum over `buf` (a multiple of 8 bytes), continuing from [s0, s1]. */
function checksum(buf: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < buf.length; i += 8) {
    const a = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const b = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + a + s1) >>> 0;
    s1 = (s1 + b + s0) >>> 0;
  }
  return [s0, s1];
}

/** The damage in the -wal at `walPath`, or null when a replay loses nothing committed (or there is no log). */
export function walDamage(walPath: string): WalDamage | null {
  let fd: number;
  try {
    fd = openSync(walPath, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return null;
    const head = Buffer.alloc(HEADER);
    if (readSync(fd, head, 0, HEADER, 0) < HEADER) return { frames: 0, firstBad: 0, lostCommits: 1 };
    const magic = head.readUInt32BE(0);
    const pageSize = head.readUInt32BE(8);
    const bigEndian = (magic & 1) === 1;
    const valid =
      (magic === 0x377f0682 || magic === 0x377f0683) &&
      pageSize >= 512 &&
      pageSize <= 65536 &&
      (pageSize & (pageSize - 1)) === 0;
    const frameSize = FRAME_HEADER + (valid ? pageSize : 0);
    const frames = valid ? Math.floor((size - HEADER) / frameSize) : 0;
    let sum = checksum(head.subarray(0, 24), bigEndian, [0, 0]);
    if (!valid || sum[0] !== head.readUInt32BE(24) || sum[1] !== head.readUInt32BE(28))
      // A header SQLite rejects drops the whole log: damage as soon as the log holds anything.
      return size > HEADER ? { frames, firstBad: 0, lostCommits: 1 } : null;
    const salt1 = head.readUInt32BE(16);
    const salt2 = head.readUInt32BE(20);
    const frame = Buffer.alloc(frameSize);
    let firstBad = 0;
    let lostCommits = 0;
    for (let k = 1; k <= frames; k++) {
      readSync(fd, frame, 0, frameSize, HEADER + (k - 1) * frameSize);
      const current = frame.readUInt32BE(8) === salt1 && frame.readUInt32BE(12) === salt2;
      if (firstBad === 0) {
        if (current) {
          sum = checksum(frame.subarray(0, 8), bigEndian, sum);
          sum = checksum(frame.subarray(FRAME_HEADER), bigEndian, sum);
          if (sum[0] === frame.readUInt32BE(16) && sum[1] === frame.readUInt32BE(20)) continue;
        }
        // An old generation's frame ends the log as it should; a bad checksum of the current one may be damage.
        if (!current) return null;
        firstBad = k;
      } else if (current && frame.readUInt32BE(4) !== 0) lostCommits++;
    }
    return lostCommits > 0 ? { frames, firstBad, lostCommits } : null;
  } finally {
    closeSync(fd);
  }
}

/** The damage in words: where, and what a replay would drop. */
export const describeWalDamage = (d: WalDamage): string =>
  `damaged at frame ${d.firstBad} of ${d.frames}: a replay would drop ${d.lostCommits} committed transaction(s)`;
