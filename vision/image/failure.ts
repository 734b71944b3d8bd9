/**
 * Why sharp could not decode a file, in words a player can act on. Shared by the dice reader's
 * decoder and the score sheet's, so a photo gets the same answer whichever it was sent to.
 *
 * The case worth naming apart is HEIC, an iPhone camera's default format. sharp's prebuilt libvips
 * reads HEIF images coded in AV1 (AVIF) but not in HEVC, so an iPhone photo fails deep inside
 * libheif with a message about codecs or plugins, which said "corrupt or truncated" before.
 */

/** The formats sharp's prebuilt libvips decodes here. */
export const READABLE_FORMATS = 'JPEG, PNG, WebP, GIF, TIFF, AVIF';

/** ISO base media file brands of HEVC-coded HEIF (ISO/IEC 23008-12): images and sequences. */
export const HEVC_BRANDS: ReadonlySet<string> = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/**
 * Whether the `ftyp` box the bytes start with names one of `brands`: its major brand at 8, or a
 * compatible one (after the minor version at 12) up to the box's end. The caller checks `ftyp`.
 */
export function ftypNames(bytes: Uint8Array, brands: ReadonlySet<string>): boolean {
  const ascii = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, Math.max(size, 16));
  if (bytes.length >= 12 && brands.has(ascii(8))) return true;
  for (let at = 16; at + 4 <= end; at += 4) if (brands.has(ascii(at))) return true;
  return false;
}

/**
 * Whether the bytes start an HEVC-coded HEIF file (an iPhone's .HEIC): an `ftyp` box whose major
 * or compatible brands name HEVC. AVIF files share the container (`mif1`) but not these brands.
 */
export function isHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  if (String.fromCharCode(bytes[4]!, bytes[5]!, bytes[6]!, bytes[7]!) !== 'ftyp') return false;
  return ftypNames(bytes, HEVC_BRANDS);
}

export type ImageFailureKind = 'heic' | 'unsupported' | 'corrupt' | 'too-large';

export interface ImageFailure {
  kind: ImageFailureKind;
  /** What was wrong, with the file's size and sharp's own words at the end. */
  message: string;
}

/** What to tell the player about bytes sharp refused with `error`: a phrase that reads after "the photo is". */
export function describeImageFailure(bytes: Uint8Array, error: unknown): ImageFailure {
  const why = libvipsWords(error instanceof Error ? error.message : String(error));
  const size = `${bytes.length} bytes`;
  if (isHeic(bytes)) {
    return {
      kind: 'heic',
      message:
        `an HEIC file (an iPhone camera's default format), which this build cannot decode: it reads ${READABLE_FORMATS}. ` +
        `Export or share the photo as JPEG, or set the iPhone's Settings → Camera → Formats to "Most Compatible" (${size}): ${why}`,
    };
  }
  if (/exceeds pixel limit/i.test(why)) return { kind: 'too-large', message: `too large to read (over 100 megapixels; ${size}): send a smaller picture` };
  if (/unsupported image format/i.test(why)) return { kind: 'unsupported', message: `not an image clew can read (${READABLE_FORMATS}; ${size}): ${why}` };
  return { kind: 'corrupt', message: `a corrupt or truncated image (${size}): ${why}` };
}

/**
 * libvips's error on one line: its buffer gathers a line per attempt, and a format sniffed by
 * seeking back (HEIF) leaves a "source: bad seek to N" line for each, which say nothing to a player.
 */
export function libvipsWords(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.replace(/:?\s*source: bad seek to \d+/g, '').trim())
    .filter((l) => l);
  return [...new Set(lines)].join('; ');
}
