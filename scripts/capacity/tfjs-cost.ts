/**
 * What the larger nets of the GPU capacity runs (capacity.py) would cost clew on this machine's
 * CPU: parameters, weight bytes at float16, a crop read in a batch of 25, and one training step
 * of 64 crops on the chosen backend, each against the committed net's shape.
 *
 *   npx tsx scripts/capacity/tfjs-cost.ts [--backend wasm] [--runs 5]
 */
import { Command } from 'commander';
import { initBackend, type BackendName } from '../../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../../vision/model/batchnorm-gradient.js';
import { buildResNet, measureNetCost } from '../../vision/model/capacity-nets.js';
import { buildNet, type LayersModel } from '../../vision/model/net.js';
import { RECIPE } from '../../vision/model/recipe.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';

const opts = new Command().option('--backend <name>', 'tfjs backend (wasm, cpu, tensorflow)', 'wasm').option('--runs <n>', 'timed runs per figure', '5').parse().opts<{ backend: string; runs: string }>();
const runs = Number(opts.runs);
if (!Number.isInteger(runs) || runs <= 0) throw new Error(`--runs must be a positive whole number, got "${opts.runs}"`);
const backend = await initBackend(opts.backend as BackendName);
registerLeanBatchNormGradient();
const classes = FACE_CLASSES.length;

console.log(`backend ${backend.name}${backend.simd ? ' (SIMD)' : ''}; median of ${runs} runs`);
console.log('| net | parameters | weights (float16) | a crop, batch of 25 | a training step of 64 |');
console.log('|---|---|---|---|---|');
const nets: [string, () => LayersModel][] = [
  ['committed net (with its batch norms)', () => buildNet(RECIPE.net, classes)],
  ...([[2, 8], [1, 16], [2, 16], [2, 24], [2, 64]] as const).map(([blocks, width]): [string, () => LayersModel] => [`ResNet-${blocks === 2 ? 18 : 10}, width ${width}`, () => buildResNet(width, blocks, classes)]),
];
for (const [name, build] of nets) {
  const c = await measureNetCost(build(), runs);
  console.log(`| ${name} | ${c.params.toLocaleString('en')} | ${Math.round((c.params * 2) / 1024).toLocaleString('en')} KB | ${c.readMs.toFixed(2)} ms | ${Math.round(c.stepMs).toLocaleString('en')} ms |`);
}
