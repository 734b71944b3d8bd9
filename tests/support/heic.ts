/**
 * An iPhone-style HEIC file for tests, made without an HEVC encoder: sharp writes an AVIF (the
 * same HEIF container), then its brands, its image item's type and its codec property are
 * renamed to HEVC's. The container is then a faithful HEIC; the coded picture inside is AV1's,
 * which no HEVC decoder would take, and this build has no HEVC decoder anyway.
 */
import sharp from 'sharp';

const RENAMES: [string, string][] = [
  ['avif', 'heic'],
  ['avis', 'hevc'],
  ['av01', 'hvc1'],
  ['av1C', 'hvcC'],
];

export async function heicPhoto(width = 64, height = 48): Promise<Uint8Array> {
  const avif = await sharp({ create: { width, height, channels: 3, background: '#b33' } }).avif({ quality: 50 }).toBuffer();
  // The four-letter codes are box and brand names, as bytes: rename them where they stand.
  let text = avif.toString('latin1');
  for (const [from, to] of RENAMES) text = text.split(from).join(to);
  return new Uint8Array(Buffer.from(text, 'latin1'));
}
