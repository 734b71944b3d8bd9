/** Small JPEG facts that need no decoder. */

/** True when the bytes start with SOI (FF D8) and end with EOI (FF D9), ignoring trailing zero padding. */
export function looksLikeJpeg(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 4 && bytes[end - 1] === 0) end--;
  return end >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}

export function looksLikePng(bytes: Uint8Array): boolean {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
}
