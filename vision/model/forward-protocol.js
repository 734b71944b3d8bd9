// @ts-check
/**
 * What the forward pool (forward-pool.ts) and its reading threads (forward-worker.js) share: the
 * layout of the control array and how a chunk of a pass is claimed. Plain JavaScript, type-checked
 * by `tsc` through its JSDoc, because the reading thread runs without TypeScript's loader
 * (forward-worker.js says why).
 */

/** Chunks a pass is cut into at most (the claim word keeps a chunk index in 8 bits). */
export const MAX_CHUNKS = 255;

/**
 * Slots of the control array. `wake` changes to wake the workers; `claim` holds the pass
 * (16 bits), its number of chunks (8 bits) and the next chunk to claim (8 bits), so one
 * compare-and-swap both checks the pass and claims a chunk; `done + k` holds the pass that chunk k
 * was last finished in by a worker, `failed + k` whether that failed.
 */
export const CONTROL = Object.freeze({ wake: 0, claim: 1, net: 2, images: 3, chunk: 4, done: 8, failed: 8 + MAX_CHUNKS, slots: 8 + 2 * MAX_CHUNKS });

/** Outputs an image may have in all (logits + embedding) for its net to be shared. */
export const MAX_OUTPUTS = 1024;

/**
 * The claim word: pass, number of chunks, next chunk.
 * @param {number} pass
 * @param {number} chunks
 * @param {number} next
 * @returns {number}
 */
export function claimWord(pass, chunks, next) {
  return ((pass & 0xffff) << 16) | ((chunks & 0xff) << 8) | (next & 0xff);
}

/**
 * Claims the next chunk of the pass in `control`'s claim word, if any is left: its index and
 * pass, or undefined when every chunk has been claimed.
 * @param {Int32Array} control
 * @returns {{ chunk: number; pass: number } | undefined}
 */
export function claimChunk(control) {
  for (;;) {
    const word = Atomics.load(control, CONTROL.claim);
    const chunks = (word >>> 8) & 0xff, next = word & 0xff;
    if (next >= chunks) return undefined;
    if (Atomics.compareExchange(control, CONTROL.claim, word, word + 1) === word) return { chunk: next, pass: (word >>> 16) & 0xffff };
  }
}
