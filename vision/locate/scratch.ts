/**
 * Full-frame arrays lent to one pass of the locator and handed back when the pass ends, so that
 * the next frame's pass gets them again instead of fresh ones. A frame made 4–6 MB of fresh
 * arrays, memory outside the JavaScript heap whose growth set off the collector's full
 * collections every dozen frames or so in a long-running process: against the empty tray or with
 * colour noise, about 1 ms a frame on the main thread and 5–7 ms of CPU on the collector's
 * helper threads (docs/notes/vision-locate.md, "Speed, again").
 *
 * Only arrays nobody holds after the pass may be lent: the planes, evidence and masks of one
 * segmentation, never what a `TrayReference` keeps. An array is lent to one pass at a time (a
 * pass nested in another, a closer look, gets others), and comes zeroed, as a fresh one does.
 * (Not clearing those every element of which is written first was no measurably faster.)
 */

type Pooled = Float32Array | Int32Array | Uint8Array;

/** Free arrays by kind and length. */
const free = new Map<string, Pooled[]>();
let freeBytes = 0;
/** The most the free arrays may hold (frames of a few sizes; more are left to the collector). */
const MAX_FREE_BYTES = 48 * 1024 * 1024;

export class FrameScratch {
  private readonly lent: { key: string; array: Pooled }[] = [];

  f32(n: number): Float32Array {
    return this.take('f', n, () => new Float32Array(n)) as Float32Array;
  }

  i32(n: number): Int32Array {
    return this.take('i', n, () => new Int32Array(n)) as Int32Array;
  }

  u8(n: number): Uint8Array {
    return this.take('u', n, () => new Uint8Array(n)) as Uint8Array;
  }

  /** Hands back every array lent: only once nothing made in the pass holds one any more. */
  release(): void {
    for (const { key, array } of this.lent) {
      if (freeBytes + array.byteLength > MAX_FREE_BYTES) continue;
      let list = free.get(key);
      if (!list) free.set(key, (list = []));
      list.push(array);
      freeBytes += array.byteLength;
    }
    this.lent.length = 0;
  }

  private take(kind: string, n: number, fresh: () => Pooled): Pooled {
    const key = kind + n;
    const array = free.get(key)?.pop();
    let out: Pooled;
    if (array) {
      freeBytes -= array.byteLength;
      out = array.fill(0);
    } else out = fresh();
    this.lent.push({ key, array: out });
    return out;
  }
}

/** A zeroed Float32Array of `n`, lent by `scratch` where given. */
export function f32(n: number, scratch?: FrameScratch): Float32Array {
  return scratch ? scratch.f32(n) : new Float32Array(n);
}

export function i32(n: number, scratch?: FrameScratch): Int32Array {
  return scratch ? scratch.i32(n) : new Int32Array(n);
}

export function u8(n: number, scratch?: FrameScratch): Uint8Array {
  return scratch ? scratch.u8(n) : new Uint8Array(n);
}
