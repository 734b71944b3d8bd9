/** Vitest setup file: every test file's scratch folders go when the file's tests are done. */
import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratch.js';

afterAll(removeScratchDirs);
