/**
 * Splits an MJPEG byte stream (rpicam-vid or ffmpeg stdout: JPEG after JPEG, no container) into
 * whole JPEG frames. No I/O and no clock: bytes in, frames out, so it is tested on byte fixtures.
 *
 * It walks the JPEG marker structure rather than searching for FF D9, because an FF D9 can sit
 * inside a frame: an EXIF thumbnail is a whole JPEG inside the APP1 segment. So:
 *  - outside a frame, everything up to the next SOI (FF D8) is garbage and dropped;
 *  - a marker segment (APPn, DQT, DHT, SOF, SOS header…) is skipped by its length field;
 *  - after SOS, entropy-coded data runs to the next marker that is not FF 00 (a stuffed FF),
 *    RST0–7 or fill FFs; further segments (progressive scans) and EOI follow;
 *  - an SOI where a marker should be means the previous frame was cut short: it is dropped and
 *    the new frame begins there;
 *  - a broken structure (a bad or implausible length, no marker where one must be) or a frame over
 *    `maxFrameBytes` drops the frame and rescans from just after its SOI, so a frame swallowed
 *    by a bogus length is still found.
 */

export interface SplitterStats {
  frames: number;
  /** Bytes outside any frame (noise before an SOI, or text a process printed to stdout). */
  garbageBytes: number;
  /** Frames cut short by a new SOI or by the end of the stream. */
  truncated: number;
  /** Frames dropped for a broken marker structure or for being too large. */
  corrupt: number;
}

type Mode = 'search' | 'marker' | 'entropy';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** DHT, DQT, SOF, SOS headers are at most ~1.1 KB even with every table; anything far above is garbage. */
const MAX_TABLE_SEGMENT = 4096;

const standalone = (m: number) => (m >= 0xd0 && m <= 0xd7) || m === 0x01;

export class MjpegSplitter {
  private buf: Uint8Array;
  private len = 0;
  /** Offset of the current frame's SOI in `buf`, or -1 while searching. */
  private start = -1;
  private pos = 0;
  private mode: Mode = 'search';
  readonly stats: SplitterStats = { frames: 0, garbageBytes: 0, truncated: 0, corrupt: 0 };

  constructor(private readonly maxFrameBytes = 8 * 1024 * 1024) {
    this.buf = new Uint8Array(64 * 1024);
  }

  /** Feeds one chunk; returns the frames it completed (each a fresh copy). */
  push(chunk: Uint8Array): Uint8Array[] {
    this.append(chunk);
    const frames: Uint8Array[] = [];
    this.drain(frames);
    return frames;
  }

  /** The stream ended: an unfinished frame counts as truncated. Resets for reuse. */
  end(): SplitterStats {
    if (this.start >= 0) this.stats.truncated++;
    else this.stats.garbageBytes += this.len - this.pos;
    this.len = 0;
    this.start = -1;
    this.pos = 0;
    this.mode = 'search';
    return { ...this.stats };
  }

  /** Bytes held waiting for the rest of a frame. */
  get pending(): number {
    return this.len - (this.start >= 0 ? this.start : this.pos);
  }

  private append(chunk: Uint8Array): void {
    const keep = this.start >= 0 ? this.start : this.pos;
    if (keep > 0 && this.len + chunk.length > this.buf.length) {
      // Drop what is already consumed before growing.
      this.buf.copyWithin(0, keep, this.len);
      this.len -= keep;
      this.pos -= keep;
      if (this.start >= 0) this.start -= keep;
    }
    if (this.len + chunk.length > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.len + chunk.length));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    this.buf.set(chunk, this.len);
    this.len += chunk.length;
  }

  private resync(): void {
    this.stats.corrupt++;
    this.pos = this.start + 1;
    this.start = -1;
    this.mode = 'search';
  }

  private drain(frames: Uint8Array[]): void {
    // Only the bytes received; the buffer's spare capacity holds stale data.
    const b = this.buf.subarray(0, this.len);
    for (;;) {
      if (this.start >= 0 && Math.min(this.pos, this.len) - this.start > this.maxFrameBytes) {
        this.resync();
        continue;
      }
      if (this.mode === 'search') {
        let i = this.pos;
        for (;;) {
          i = b.indexOf(0xff, i);
          if (i < 0) i = this.len;
          if (i + 1 >= this.len || b[i + 1] === SOI) break;
          i++;
        }
        if (i + 1 >= this.len) {
          // Keep a last FF: it may be the first half of an SOI.
          const keep = this.len > this.pos && b[this.len - 1] === 0xff ? 1 : 0;
          this.stats.garbageBytes += this.len - keep - this.pos;
          this.pos = this.len - keep;
          return;
        }
        this.stats.garbageBytes += i - this.pos;
        this.start = i;
        this.pos = i + 2;
        this.mode = 'marker';
        continue;
      }
      if (this.mode === 'entropy') {
        let i = this.pos;
        for (;;) {
          // indexOf is native: scan data is most of every frame.
          if (i < this.len) {
            i = b.indexOf(0xff, i);
            if (i < 0) i = this.len;
          }
          if (i + 1 >= this.len) {
            this.pos = i;
            return;
          }
          const next = b[i + 1]!;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) i += 2;
          else if (next === 0xff) i += 1;
          else break;
        }
        this.pos = i;
        this.mode = 'marker';
        continue;
      }
      // mode === 'marker': pos should be at FF (possibly several fill FFs) then the marker code.
      if (this.pos >= this.len) return;
      if (b[this.pos] !== 0xff) {
        this.resync();
        continue;
      }
      while (this.pos + 1 < this.len && b[this.pos + 1] === 0xff) this.pos++;
      if (this.pos + 1 >= this.len) return;
      const m = b[this.pos + 1]!;
      if (m === EOI) {
        const end = this.pos + 2;
        frames.push(b.slice(this.start, end));
        this.stats.frames++;
        this.start = -1;
        this.pos = end;
        this.mode = 'search';
        continue;
      }
      if (m === SOI) {
        this.stats.truncated++;
        this.start = this.pos;
        this.pos += 2;
        continue;
      }
      if (standalone(m)) {
        this.pos += 2;
        continue;
      }
      if (m === 0x00) {
        this.resync();
        continue;
      }
      if (this.pos + 3 >= this.len) return;
      const length = (b[this.pos + 2]! << 8) | b[this.pos + 3]!;
      // Only APPn and COM segments may be large; a huge table or header length is a broken frame.
      const mayBeLarge = (m >= 0xe0 && m <= 0xef) || m === 0xfe;
      if (length < 2 || (!mayBeLarge && length > MAX_TABLE_SEGMENT)) {
        this.resync();
        continue;
      }
      // pos may now point past the data received so far; the next call resumes there.
      this.pos += 2 + length;
      if (m === SOS) this.mode = 'entropy';
      if (this.pos > this.len) return;
    }
  }
}
