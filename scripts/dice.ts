/**
 * `npm run --silent dice -- --set d6 --json FILE...`: reads the dice in images (a stable
 * contract other tools rely on).
 *
 *   frames:  {"file":…,"dice":[{"face":"4","confidence":0.97,"box":[x0,y0,x1,y1],"color":"red","uncertain":false}]}
 *            box: pixels of the picture as shown (EXIF orientation applied), at its full size
 *            (a picture over 24 MP is read shrunk, its boxes scaled back): x0,y0 top left, x1,y1 bottom right.
 *   --crop:  {"file":…,"face":"4","confidence":0.97,"uncertain":false}   (each image is one die)
 *            {"file":…,"face":"4","confidence":0.5,"uncertain":true,"diceInPicture":2}   (a picture that
 *            shows two or more whole dice: read, but marked, its confidence at most 1/diceInPicture;
 *            --framing locate). Not "dice": that key, an array, is what marks a frame's line.
 *   errors:  {"file":…,"error":"…"}   (that file only; the others are still read; exit code 1)
 *
 * "color" is left out where the picture is grey (a monochrome camera) and the palette has colours
 * with a hue: a grey picture cannot show them.
 *
 * --set takes dice set ids (comma-separated for several; then each die also says its "set").
 * --calibration DIR applies a calibration from labelled crops DIR/<face>/*.jpg first (the whole
 * net adapted; --calibrate head refits only the last layer, faster and weaker). Its pictures are
 * taken to come from one camera: where they share an up that their labels confirm, they are
 * taught in it and pictures read after are read against it (calibrations.ts, `pictureUp`).
 * --tray FILE: a picture of the empty tray from the same camera; frames of its size are compared
 * with it to find the dice, and each frame's line says "tray":"used", "moved" (most of the frame
 * differs from it: the camera moved or the tray changed; the tray is then modelled as without
 * it) or "other-size".
 * TensorFlow.js and the model load only after the arguments are checked, and once.
 */
import { Command } from 'commander';
import { DICE_SET_IDS, DIE_COLORS, type DiceSetId, isDieColor } from '../shared/dice.js';
import type { TrayFit, TrayReference } from '../vision/locate/index.js';
import { CAMERA_VIEWS, WORKING_SIZE_RANGE, type CameraView } from '../vision/types.js';

interface Options {
  set: string;
  json?: boolean;
  crop?: boolean;
  calibration?: string;
  calibrate: string;
  tray?: string;
  palette?: string;
  framing: string;
  model?: string;
  backend?: string;
  workingSize?: string;
  view: string;
}

const program = new Command()
  .name('dice')
  .description('read the dice in images')
  .argument('<files...>', 'images (JPEG, PNG, WebP, GIF, TIFF, AVIF)')
  .requiredOption('--set <ids>', `dice set(s) in play, comma-separated: ${DICE_SET_IDS.join(', ')}`, (value: string, before?: string) =>
    before === undefined ? value : fail(`--set is given twice ("${before}", then "${value}"): name every set in one --set, comma-separated`),
  )
  .option('--json', 'one JSON object per line')
  .option('--crop', 'each image is one die (already cropped); one that shows several whole dice is read but marked, with how many ("diceInPicture")')
  .option('--calibration <dir>', 'apply a calibration from labelled crops DIR/<face>/*.jpg')
  .option('--calibrate <how>', 'with --calibration: net (adapt the whole net, about 10 s) or head (refit the last layer only, about 1 s)', 'net')
  .option('--tray <file>', 'a picture of the empty tray from the same camera: frames of its size are compared with it')
  .option('--palette <colours>', `die colours to name, comma-separated (default: all of ${Object.keys(DIE_COLORS).join(', ')})`)
  .option('--framing <mode>', 'with --crop: locate (find the die in the picture first; if none is found, read the whole picture and its central square, and keep the clearly surer) or whole (the picture is the die)', 'locate')
  .option('--view <how>', 'how the camera looked at the dice: any (not known, perhaps turned: each die read in its four quarter turns, weighted by how upright each looks), side (from above and to one side, as most photos) or overhead (frames: straight down)', 'any')
  .option('--working-size <px>', 'frames are located fitted within this many pixels (default 640; more finds smaller dice in big pictures, in more time)')
  .option('--model <dir>', 'model directory (default: the committed model)')
  .option('--backend <name>', 'tfjs backend: tensorflow, wasm or cpu')
  .showHelpAfterError()
  // Usage errors exit 2, as the checks below do; 1 means some file could not be read.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

function fail(message: string): never {
  process.stderr.write(`dice: ${message}\n`);
  process.exit(2);
}

// A reader that stops reading (`| head`) ends the run quietly, as other command line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

program.parse();
const files = program.args;
const opts = program.opts<Options>();
const sets = [...new Set(opts.set.split(',').map((s) => s.trim()).filter(Boolean))];
const badSet = sets.find((s) => !DICE_SET_IDS.includes(s as DiceSetId));
if (sets.length === 0 || badSet !== undefined) fail(`--set: "${badSet ?? opts.set}" is not a dice set (${DICE_SET_IDS.join(', ')})`);
const palette = opts.palette !== undefined ? [...new Set(opts.palette.split(',').map((c) => c.trim()).filter(Boolean))] : Object.keys(DIE_COLORS);
if (palette.length === 0) fail(`--palette names at least one die colour (${Object.keys(DIE_COLORS).join(', ')})`);
const badColour = palette.find((c) => !isDieColor(c));
if (badColour !== undefined) fail(`--palette: "${badColour}" is not a die colour (${Object.keys(DIE_COLORS).join(', ')})`);
if (opts.framing !== 'whole' && opts.framing !== 'locate') fail(`--framing must be whole or locate, got "${opts.framing}"`);
if (!CAMERA_VIEWS.includes(opts.view as CameraView)) fail(`--view must be ${CAMERA_VIEWS.slice(0, -1).join(', ')} or ${CAMERA_VIEWS.at(-1)}, got "${opts.view}"`);
if (opts.tray !== undefined && opts.crop) fail('--tray is for frames; with --crop each picture is one die');
if (opts.calibrate !== 'net' && opts.calibrate !== 'head') fail(`--calibrate must be net or head, got "${opts.calibrate}"`);
if (opts.backend !== undefined && !['tensorflow', 'wasm', 'cpu'].includes(opts.backend)) fail(`--backend must be tensorflow, wasm or cpu, got "${opts.backend}"`);
const workingSize = opts.workingSize === undefined ? undefined : Number(opts.workingSize);
const { min: minSize, max: maxSize } = WORKING_SIZE_RANGE;
if (workingSize !== undefined && !(Number.isInteger(workingSize) && workingSize >= minSize && workingSize <= maxSize)) fail(`--working-size must be a whole number of pixels from ${minSize} to ${maxSize}, got "${opts.workingSize}"`);

// Heavy modules only now that the arguments are sound.
const { loadDiceReader } = await import('../vision/reader.js');
const { decodeImage, decodePicture, readPictureFile, toPictureBox, PictureFileError } = await import('../vision/image/decode.js');
const { readFaceFolders } = await import('../vision/model/labelled-folder.js');

let reader: Awaited<ReturnType<typeof loadDiceReader>>;
try {
  reader = await loadDiceReader({
    ...(opts.model ? { modelDir: opts.model } : {}),
    ...(opts.backend ? { backend: opts.backend as 'wasm' } : {}),
    cropFraming: opts.framing as 'whole' | 'locate',
    calibrate: opts.calibrate as 'net' | 'head',
    ...(workingSize !== undefined ? { locate: { maxSide: workingSize } } : {}),
  });
} catch (error) {
  fail(`${opts.model ? '--model: ' : ''}${error instanceof Error ? error.message : String(error)}`);
}
// A backend asked for that could not start (tfjs-node not installed) reads on another: said, not hidden.
if (opts.backend && reader.backend !== opts.backend) process.stderr.write(`dice: --backend ${opts.backend} could not start here; reading on ${reader.backend}\n`);

if (opts.calibration) {
  const calSet = sets[0] as DiceSetId;
  if (sets.length > 1) process.stderr.write(`dice: --calibration applies to the first set, ${calSet}\n`);
  try {
    // Said at once, not as a process warning: one emitted just before fail() exits is lost.
    const warn = (message: string) => process.stderr.write(`dice: --calibration: ${message}\n`);
    const labelled = await readFaceFolders(calSet, opts.calibration, opts.framing as 'whole' | 'locate', { warn });
    for (const l of labelled) await reader.calibration.add(calSet, l.face, l.image);
    await reader.calibration.commit(calSet, { persist: false });
  } catch (error) {
    fail(`--calibration: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let tray: TrayReference | undefined;
if (opts.tray) {
  try {
    tray = reader.learnTray(await decodeImage(await readPictureFile(opts.tray)));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/^decodeImage: /, '');
    fail(`--tray: ${error instanceof PictureFileError && error.problem === 'missing' ? `no such file: ${opts.tray}` : `${opts.tray}: ${message}`}`);
  }
}

const round = (v: number, d = 4) => Math.round(v * 10 ** d) / 10 ** d;
const several = sets.length > 1;
let failed = false;

for (const file of files) {
  let line: Record<string, unknown>;
  try {
    let bytes: Uint8Array;
    try {
      // Its size and first bytes are checked before it is read whole: a video among the photos is not read.
      bytes = await readPictureFile(file);
    } catch (error) {
      if (error instanceof PictureFileError && error.problem === 'missing' && file === '-') throw new Error('no such file (standard input is not read: name the image files)');
      throw error;
    }
    const decoded = await decodePicture(bytes);
    const image = decoded.image;
    const readOptions = { sets: sets as DiceSetId[], palette, view: opts.view as CameraView };
    if (opts.crop) {
      const [r] = await reader.readCrops([image], readOptions);
      line = { file, ...(several ? { set: r!.set } : {}), face: r!.face, confidence: round(r!.confidence), ...(r!.color ? { color: r!.color } : {}), uncertain: r!.uncertain, ...(r!.diceInPicture ? { diceInPicture: r!.diceInPicture } : {}) };
    } else {
      let fit: TrayFit | undefined;
      const dice = await reader.read(image, { ...readOptions, picture: true, ...(tray ? { tray, onTray: (f: TrayFit) => (fit = f) } : {}) });
      line = {
        file,
        ...(tray ? { tray: fit?.used ? 'used' : fit?.reason === 'misfit' ? 'moved' : 'other-size' } : {}),
        dice: dice.map((d) => ({
          ...(several ? { set: d.set } : {}),
          face: d.face,
          confidence: round(d.confidence),
          // In the upright picture's own pixels, though a picture over 24 MP is read shrunk.
          box: toPictureBox(d.box, decoded).map((v) => Math.round(v)),
          ...(d.color ? { color: d.color } : {}),
          uncertain: d.uncertain,
        })),
      };
    }
  } catch (error) {
    failed = true;
    line = { file, error: (error instanceof Error ? error.message : String(error)).replace(/^decodeImage: /, '') };
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(line) + '\n');
  } else if ('error' in line) {
    process.stdout.write(`${file}: error: ${String(line.error)}\n`);
  } else if (opts.crop) {
    // A picture of several dice read as one: said, with what to do instead.
    const many = line.diceInPicture ? `; the picture shows ${String(line.diceInPicture)} dice: read it without --crop to read each` : '';
    process.stdout.write(`${file}: ${String(line.face)} (${(100 * Number(line.confidence)).toFixed(1)}%${line.uncertain ? ', please confirm' : ''}${many})\n`);
  } else {
    const dice = line.dice as { face: string; confidence: number; color?: string; uncertain: boolean; set?: string }[];
    // A picture of one die, cut close, has its die touching the edge, and such a die is never read.
    const text = dice.length === 0 ? 'no dice found (a die the picture cuts is not read; for a picture of one die, use --crop)' : dice.map((d) => `${d.color ? d.color + ' ' : ''}${d.set ? d.set + ':' : ''}${d.face} (${(100 * d.confidence).toFixed(0)}%${d.uncertain ? '?' : ''})`).join(', ');
    const trayNote = line.tray === 'moved' ? ' (the empty tray no longer fits this frame: did the camera move? It was modelled instead)' : line.tray === 'other-size' ? ' (the empty tray was taken at another size: not used)' : '';
    process.stdout.write(`${file}: ${text}${trayNote}\n`);
  }
}
reader.dispose();
process.exitCode = failed ? 1 : 0;
