/**
 * vision/image: decoding real bytes (and refusing bad ones), the crop framing every classifier
 * input shares, resampling and colour spaces.
 */
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, decodePicture, encodeJpeg, encodePng, ImageDecodeError, MAX_FILE_BYTES, PictureFileError, readPictureFile, toPictureBox } from '../../vision/image/decode.js';
import { scratchDir } from '../support/scratch.js';
import { isHeic, libvipsWords } from '../../vision/image/failure.js';
import { heicPhoto } from '../support/heic.js';
import { squareAround, squareCrop } from '../../vision/image/crop.js';
import { clampRound, createImage, cropRect, pixelAt } from '../../vision/image/image.js';
import { resampleRect, resize } from '../../vision/image/resize.js';
import { createRng } from '../../shared/rng.js';
import { hsvToRgb, rgbToHsv, toGrey } from '../../vision/image/color.js';
import type { RgbImage } from '../../vision/types.js';

/** A test card: left half red, right half blue, a green square top-left. */
function card(width: number, height: number): RgbImage {
  const img = createImage(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const c = x < 8 && y < 8 ? [0, 255, 0] : x < width / 2 ? [255, 0, 0] : [0, 0, 255];
      img.data.set(c, i);
    }
  }
  return img;
}

describe('decodeImage', () => {
  it('decodes a PNG losslessly to RGB', async () => {
    const img = card(40, 30);
    const back = await decodeImage(await encodePng(img));
    expect([back.width, back.height]).toEqual([40, 30]);
    expect(Buffer.from(back.data).equals(Buffer.from(img.data))).toBe(true);
  });

  it('decodes a JPEG close to the original colours', async () => {
    const back = await decodeImage(await encodeJpeg(card(64, 48), 95));
    expect([back.width, back.height]).toEqual([64, 48]);
    const [r, , b] = pixelAt(back, 20, 30);
    expect(r).toBeGreaterThan(220);
    expect(b).toBeLessThan(40);
  });

  it('applies EXIF orientation (6 = rotate 90° clockwise)', async () => {
    const img = card(40, 30);
    const bytes = await sharp(img.data, { raw: { width: 40, height: 30, channels: 3 } })
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 95 })
      .toBuffer();
    const back = await decodeImage(new Uint8Array(bytes));
    expect([back.width, back.height]).toEqual([30, 40]);
    // The green corner (top-left) lands top-right after a clockwise quarter turn.
    const [r, g] = pixelAt(back, 26, 3);
    expect(g).toBeGreaterThan(180);
    expect(r).toBeLessThan(80);
  });

  it('expands greyscale and drops alpha', async () => {
    const grey = await sharp(new Uint8Array(20).fill(90), { raw: { width: 5, height: 4, channels: 1 } })
      .png()
      .toBuffer();
    const g = await decodeImage(new Uint8Array(grey));
    expect(g.data.length).toBe(5 * 4 * 3);
    expect(pixelAt(g, 2, 2)).toEqual([90, 90, 90]);
    const rgba = await sharp({ create: { width: 3, height: 2, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } })
      .png()
      .toBuffer();
    const c = await decodeImage(new Uint8Array(rgba));
    expect(pixelAt(c, 1, 1)).toEqual([10, 20, 30]);
  });

  it('refuses empty bytes, saying so', async () => {
    await expect(decodeImage(new Uint8Array(0))).rejects.toThrow(/empty file/);
  });

  it('refuses bytes that are not an image', async () => {
    await expect(decodeImage(new TextEncoder().encode('hello, not a picture'))).rejects.toThrow(/not an image clew can read \(JPEG/);
  });

  it('refuses a truncated JPEG', async () => {
    const jpeg = await encodeJpeg(card(64, 64), 90);
    await expect(decodeImage(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).rejects.toThrow(/decodeImage: .*\d+ bytes/);
    await expect(decodeImage(jpeg.subarray(0, 100))).rejects.toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/a corrupt or truncated image/) });
  });

  it('shrinks a picture over 24 MP as it decodes, upright and in proportion, and says by how much; refuses one over 100 MP by its size', async () => {
    // 7,200×4,800 (34.6 MP), stored on its side with EXIF orientation 6: upright it is 4,800 wide.
    const big = await sharp({ create: { width: 7200, height: 4800, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .composite([{ input: { create: { width: 400, height: 400, channels: 3, background: { r: 20, g: 200, b: 20 } } }, left: 0, top: 0 }])
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 80 })
      .toBuffer();
    const decoded = await decodePicture(new Uint8Array(big));
    const back = decoded.image;
    expect(decoded.picture).toEqual({ width: 4800, height: 7200 });
    expect(decoded.scale).toBeCloseTo(Math.sqrt(24 / 34.56), 2);
    expect(back.height / back.width).toBeCloseTo(7200 / 4800, 2);
    expect(back.width * back.height).toBeLessThanOrEqual(24_000_000);
    expect(back.width * back.height).toBeGreaterThan(23_000_000);
    // The green corner (top-left as stored) lands top-right after the clockwise quarter turn.
    const [r, g] = pixelAt(back, back.width - 20, 20);
    expect(g).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    // Found in the shrunk pixels, the green square is put back where it is in the upright picture: 4,400..4,800 × 0..400.
    let [x0, y0, x1, y1] = [Infinity, Infinity, 0, 0];
    for (let y = 0; y < back.height / 4; y++) {
      for (let x = Math.floor(back.width * 0.75); x < back.width; x++) {
        const [pr, pg] = pixelAt(back, x, y);
        if (pg! > 150 && pr! < 80) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      }
    }
    toPictureBox([x0, y0, x1, y1], decoded).forEach((v, i) => expect(Math.abs(v - [4400, 0, 4800, 400][i]!), `box[${i}] = ${v}`).toBeLessThanOrEqual(4));
    // Its header says 12,000×9,000: refused before anything is decoded.
    const header = Uint8Array.from(await encodeJpeg(card(64, 48), 90));
    for (let at = 2; ; ) {
      if (header[at + 1]! >= 0xc0 && header[at + 1]! <= 0xc2) {
        header.set([9000 >> 8, 9000 & 255, 12000 >> 8, 12000 & 255], at + 5);
        break;
      }
      at += 2 + ((header[at + 2]! << 8) | header[at + 3]!);
    }
    await expect(decodeImage(header)).rejects.toMatchObject({ kind: 'too-large', message: expect.stringMatching(/too large to read: 12000×9000 pixels \(108 MP; at most 100 MP\)/) });
  });

  it('keeps no libvips cache: each picture is decoded once, and a cache only held the last ones\' pixels', () => {
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, items: { max: 0 } });
  });

  it('a picture decoded whole is its own size: scale 1, boxes unchanged', async () => {
    const decoded = await decodePicture(await encodePng(card(40, 30)));
    expect([decoded.picture, decoded.scale]).toEqual([{ width: 40, height: 30 }, 1]);
    expect(toPictureBox([3, 4, 20, 25], decoded)).toEqual([3, 4, 20, 25]);
  });

  it('refuses an SVG drawing and a video by their first bytes: not formats clew reads (libvips would read the SVG)', async () => {
    const svg = new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#fff"/></svg>');
    await expect(decodeImage(svg)).rejects.toMatchObject({ kind: 'unsupported', message: expect.stringMatching(/not an image clew can read \(JPEG, PNG, WebP, GIF, TIFF, AVIF; this is an SVG drawing; \d+ bytes\)/) });
    const mov = new Uint8Array(64);
    mov.set([0, 0, 0, 20, ...new TextEncoder().encode('ftypqt  \0\0\0\0qt  ')]);
    await expect(decodeImage(mov)).rejects.toMatchObject({ kind: 'unsupported', message: expect.stringMatching(/this is a video \(MP4 or MOV\)/) });
  });

  it("names an iPhone's HEIC photo and says how to send it instead", async () => {
    const error = await decodeImage(await heicPhoto()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageDecodeError);
    expect(error).toMatchObject({ kind: 'heic' });
    expect((error as Error).message).toMatch(/an HEIC file .*JPEG.*Most Compatible/);
  });
});

describe('readPictureFile: a file checked before it is read whole', () => {
  it('reads a picture\'s bytes as they are', async () => {
    const dir = scratchDir('clew-picture-file-');
    const file = path.join(dir, 'card.png');
    const png = await encodePng(card(16, 16));
    writeFileSync(file, png);
    const bytes = await readPictureFile(file);
    expect(Buffer.from(bytes).equals(Buffer.from(png))).toBe(true);
  });

  it('refuses a folder, a broken link, a missing file, a video and a file too big for a picture, from its size and first bytes', async () => {
    const dir = scratchDir('clew-picture-file-');
    const refusal = (file: string) => readPictureFile(path.join(dir, file)).then(() => null, (e: unknown) => (e instanceof PictureFileError ? [e.problem, e.message] : e));
    mkdirSync(path.join(dir, 'folder.jpg'));
    symlinkSync(path.join(dir, 'gone.jpg'), path.join(dir, 'dangling.jpg'));
    // Sparse files: their size is what matters, not their (zero) bytes on disk.
    writeFileSync(path.join(dir, 'clip.mov'), Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0qt  ', 'latin1'));
    truncateSync(path.join(dir, 'clip.mov'), 50_000_000);
    writeFileSync(path.join(dir, 'huge.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    truncateSync(path.join(dir, 'huge.jpg'), MAX_FILE_BYTES + 1);
    expect(await refusal('folder.jpg')).toEqual(['folder', 'is a folder, not an image']);
    expect(await refusal('dangling.jpg')).toEqual(['broken-link', `a broken link: what it points to (${path.join(dir, 'gone.jpg')}) does not exist`]);
    expect(await refusal('missing.jpg')).toEqual(['missing', 'no such file']);
    expect(await refusal('clip.mov')).toEqual(['not-a-picture', 'not an image clew can read (JPEG, PNG, WebP, GIF, TIFF, AVIF; this is a video (MP4 or MOV); 50000000 bytes)']);
    expect(await refusal('huge.jpg')).toEqual(['too-big', 'too big to be a picture clew reads (301 MB; at most 300 MB)']);
  });
});

describe('isHeic: HEVC-coded HEIF told from its ftyp box', () => {
  /** An ftyp box: size, "ftyp", the major brand, a minor version, then compatible brands. */
  const ftyp = (major: string, ...compatible: string[]) => {
    const size = 16 + 4 * compatible.length;
    const bytes = new Uint8Array(size + 8);
    new DataView(bytes.buffer).setUint32(0, size);
    [...'ftyp', ...major, 0, 0, 0, 0, ...compatible.join('')].forEach((c, i) => (bytes[4 + i] = typeof c === 'number' ? c : c.charCodeAt(0)));
    return bytes;
  };

  it('by its major brand or a compatible one, not by the container alone', async () => {
    expect(isHeic(ftyp('heic', 'mif1', 'heic'))).toBe(true);
    expect(isHeic(ftyp('mif1', 'mif1', 'heic'))).toBe(true); // some cameras lead with the container's brand
    expect(isHeic(ftyp('heix'))).toBe(true);
    expect(isHeic(ftyp('hevc', 'msf1'))).toBe(true); // a burst or live photo's sequence
    expect(isHeic(ftyp('avif', 'mif1', 'miaf'))).toBe(false);
    expect(isHeic(ftyp('mif1', 'avif'))).toBe(false);
    expect(isHeic(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).avif().toBuffer())).toBe(false);
    expect(isHeic(await encodeJpeg(card(8, 8)))).toBe(false);
    expect(isHeic(new Uint8Array(3))).toBe(false);
  });

  it("libvips's error on one line, without its seeks", () => {
    const raw = 'Input buffer has corrupt header: source: bad seek to 1024\nsource: bad seek to 512\nheif: Invalid input: Unexpected end of file (2.100)\n';
    expect(libvipsWords(raw)).toBe('Input buffer has corrupt header; heif: Invalid input: Unexpected end of file (2.100)');
    expect(libvipsWords('VipsJpeg: premature end of JPEG image\nVipsJpeg: premature end of JPEG image')).toBe('VipsJpeg: premature end of JPEG image');
  });

  it('reads brands only inside the ftyp box', () => {
    const box = ftyp('mif1', 'miaf');
    const after = new Uint8Array([...box.subarray(0, 24), ...'heic'].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)));
    expect(isHeic(after)).toBe(false);
  });
});

describe('squareCrop', () => {
  it('frames a square of 1.15 × the longer side around the box centre', () => {
    expect(squareAround([10, 20, 50, 40])).toEqual([30 - 23, 30 - 23, 30 + 23, 30 + 23]);
  });

  it('gives 64×64 RGB by default', () => {
    const out = squareCrop(card(200, 100), [50, 20, 90, 80]);
    expect([out.width, out.height, out.data.length]).toEqual([64, 64, 64 * 64 * 3]);
  });

  it('is the identity on an exact pixel grid (scale 1, same size)', () => {
    const img = card(32, 32);
    const out = squareCrop(img, [0, 0, 32, 32], { size: 32, scale: 1 });
    expect(Buffer.from(out.data).equals(Buffer.from(img.data))).toBe(true);
  });

  it('replicates edge pixels outside the image', () => {
    const img = card(40, 40); // red on the left edge
    const out = squareCrop(img, [0, 10, 20, 30], { size: 32, scale: 3 });
    // The square reaches 20 px left of the image: all of that is the replicated red edge.
    expect(pixelAt(out, 0, 16)).toEqual([255, 0, 0]);
  });

  it('keeps a small mark where it belongs when shrinking 5×', () => {
    const img = createImage(320, 320, [255, 255, 255]);
    for (let y = 150; y < 170; y++) for (let x = 250; x < 270; x++) img.data.set([0, 0, 0], (y * 320 + x) * 3);
    const out = squareCrop(img, [0, 0, 320, 320], { size: 64, scale: 1 });
    // The dark 20 px square covers output pixels 50..53 in x and 30..33 in y.
    expect(pixelAt(out, 51, 32)[0]).toBeLessThan(10);
    expect(pixelAt(out, 45, 32)[0]).toBeGreaterThan(245);
    expect(pixelAt(out, 51, 25)[0]).toBeGreaterThan(245);
  });

  it('rejects an empty box', () => {
    expect(() => squareCrop(card(10, 10), [5, 5, 5, 9])).toThrow(/empty box/);
  });
});

describe('resize, cropRect, colour', () => {
  it('resize averages when shrinking (a 2×2 checker becomes its mean)', () => {
    const img = createImage(2, 2);
    img.data.set([255, 255, 255], 0);
    img.data.set([255, 255, 255], 9);
    expect(pixelAt(resize(img, 1, 1), 0, 0)).toEqual([128, 128, 128]);
  });

  it('resampleRect matches a plain per-pixel filter (the separable passes are only faster)', () => {
    // The reference: each output pixel the mean of n × n bilinear samples of its source span
    // (n = ceil(step), 1 when enlarging), edges replicated, computed directly in doubles.
    const rng = createRng('resample');
    const sample = (img: RgbImage, u: number, v: number, ch: number) => {
      const at = (x: number, y: number) => img.data[(Math.min(img.height - 1, Math.max(0, y)) * img.width + Math.min(img.width - 1, Math.max(0, x))) * 3 + ch]!;
      const fx = Math.floor(u), fy = Math.floor(v), tx = u - fx, ty = v - fy;
      return (at(fx, fy) * (1 - tx) + at(fx + 1, fy) * tx) * (1 - ty) + (at(fx, fy + 1) * (1 - tx) + at(fx + 1, fy + 1) * tx) * ty;
    };
    for (let t = 0; t < 12; t++) {
      const w = rng.int(5, 60), h = rng.int(5, 60);
      const img: RgbImage = { width: w, height: h, data: Uint8Array.from({ length: w * h * 3 }, () => rng.int(0, 255)) };
      const x0 = rng.range(-5, w / 2), y0 = rng.range(-5, h / 2), sw = rng.range(3, 90), sh = rng.range(3, 90), ow = rng.int(4, 40), oh = rng.int(4, 40);
      const out = resampleRect(img, x0, y0, sw, sh, ow, oh);
      const nx = Math.max(1, Math.ceil(sw / ow - 1e-9)), ny = Math.max(1, Math.ceil(sh / oh - 1e-9));
      for (let j = 0; j < oh; j++) {
        for (let i = 0; i < ow; i++) {
          for (let ch = 0; ch < 3; ch++) {
            let s = 0;
            for (let ky = 0; ky < ny; ky++) for (let kx = 0; kx < nx; kx++) s += sample(img, x0 + (i + (kx + 0.5) / nx) * (sw / ow) - 0.5, y0 + (j + (ky + 0.5) / ny) * (sh / oh) - 0.5, ch);
            expect(Math.abs(out.data[(j * ow + i) * 3 + ch]! - s / (nx * ny))).toBeLessThanOrEqual(1);
          }
        }
      }
    }
  });

  it('clampRound is Math.round clamped to a byte, ties and the values next to them included', () => {
    const reference = (v: number) => Math.min(255, Math.max(0, Math.round(v)));
    const rng = createRng('clamp-round');
    const values = [NaN, -Infinity, -1, -0.5, -0, 0, 0.5, 254.5, 255, 255.49, 255.5, 256, 1e9, Infinity];
    for (let k = 0; k <= 256; k++) {
      // Each tie, the doubles on either side of it and of the integer.
      for (const v of [k, k + 0.5]) values.push(v, v - 2 ** -44, v + 2 ** -44, v - Number.EPSILON * Math.max(1, v), v + Number.EPSILON * Math.max(1, v));
    }
    values.push(0.5 - 2 ** -54, 0.5 + 2 ** -53);
    for (let i = 0; i < 20_000; i++) values.push(rng.range(-2, 258), Math.fround(rng.range(0, 255)) * Math.fround(rng.next()));
    for (const v of values) expect(clampRound(v), String(v)).toBe(reference(v) || 0);
  });

  it('cropRect copies a clipped rectangle', () => {
    const out = cropRect(card(20, 20), 15, 15, 30, 30);
    expect([out.width, out.height]).toEqual([5, 5]);
    expect(pixelAt(out, 0, 0)).toEqual([0, 0, 255]);
  });

  it('HSV round-trips and names primary hues', () => {
    expect(rgbToHsv(255, 0, 0)).toEqual([0, 1, 1]);
    expect(rgbToHsv(0, 0, 255)[0]).toBe(240);
    for (const c of [[12, 200, 77], [240, 200, 40], [30, 30, 32]] as const) {
      expect(hsvToRgb(...rgbToHsv(c[0], c[1], c[2]))).toEqual([...c]);
    }
  });

  it('toGrey uses Rec. 601 luma', () => {
    const img = createImage(1, 1, [255, 0, 0]);
    expect(toGrey(img)[0]).toBe(76);
  });
});
