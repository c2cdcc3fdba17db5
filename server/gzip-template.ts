// Gzip for a page whose only per-request bytes are its CSP nonce: the text between nonces is
// compressed once, and each request's nonce goes between those pieces as a stored (uncompressed)
// deflate block, so a request costs a CRC and a copy instead of a compression.
//
// Each piece is compressed with the text before it as its dictionary (RFC 1951 back-references may
// reach 32 KiB back), with NUL bytes where the nonces will be: a match can never use those bytes,
// because the text itself has none, so what the decoder has in those places does not matter.
import { constants, crc32, deflateRawSync } from "node:zlib";

const WINDOW = 32 * 1024;
const ASCII = /^[\x20-\x7e]+$/;
// A gzip member header: magic, deflate, no flags, no mtime, no extra flags, unknown OS (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
// An empty final stored block: it ends the deflate stream on the byte boundary the pieces end on.
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

export type GzipTemplate = {
  /** The gzip member of the text with `hole` replaced by `fill`, which must be `holeLength` bytes. */
  fill: (fill: string) => Buffer;
  holeLength: number;
  /** The compressed size without the fills, for cache accounting. */
  byteLength: number;
};

/**
 * Compiles `text` into a template whose holes are each occurrence of `hole`; undefined when the text
 * cannot be compiled safely (it contains NUL, or `hole` is not plain ASCII), and the caller compresses
 * per request instead.
 */
export function compileGzipTemplate(text: string, hole: string, level = 9): GzipTemplate | undefined {
  if (text.includes("\0") || !ASCII.test(hole) || hole.length > 0xffff) return undefined;
  const holeLength = hole.length;
  const plain = text.split(hole).map((part) => Buffer.from(part));
  const compressed: Buffer[] = [];
  let window = Buffer.alloc(0);
  for (const [index, part] of plain.entries()) {
    const options: Parameters<typeof deflateRawSync>[1] = { level, finishFlush: constants.Z_SYNC_FLUSH };
    if (window.length > 0) options.dictionary = window;
    // Z_SYNC_FLUSH ends the piece on a byte boundary, with no final-block bit: pieces concatenate.
    compressed.push(deflateRawSync(part, options));
    const nulls = index < plain.length - 1 ? Buffer.alloc(holeLength) : Buffer.alloc(0);
    window = Buffer.concat([window, part, nulls]);
    if (window.length > WINDOW) window = window.subarray(window.length - WINDOW);
  }
  const storedHeader = Buffer.from([0x00, holeLength & 0xff, holeLength >> 8, ~holeLength & 0xff, (~holeLength >> 8) & 0xff]);
  const totalLength = plain.reduce((sum, part) => sum + part.length, 0) + holeLength * (plain.length - 1);
  const byteLength = compressed.reduce((sum, part) => sum + part.length, 0);

  return {
    holeLength,
    byteLength,
    fill(value: string) {
      if (value.length !== holeLength || !ASCII.test(value)) throw new RangeError(`fill must be ${holeLength} printable ASCII characters`);
      const bytes = Buffer.from(value, "latin1");
      const pieces: Buffer[] = [GZIP_HEADER];
      let crc = 0;
      for (const [index, part] of compressed.entries()) {
        pieces.push(part);
        const text = plain[index] as Buffer;
        // Never an empty buffer: Node 20's optimised crc32 has answered 0 for one.
        if (text.length > 0) crc = crc32(text, crc);
        if (index < compressed.length - 1) {
          pieces.push(storedHeader, bytes);
          crc = crc32(bytes, crc);
        }
      }
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      trailer.writeUInt32LE(totalLength % 2 ** 32, 4);
      pieces.push(FINAL_BLOCK, trailer);
      return Buffer.concat(pieces);
    },
  };
}
