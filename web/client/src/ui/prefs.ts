/** This phone's own choices that are not table state: "just watching" (kept for the browser tab). */
import { createStore } from '../net/store.js';

function read(): boolean {
  try {
    return sessionStorage.getItem('clew.watch') === '1';
  } catch {
    return false;
  }
}

export const prefs = createStore({ watching: read() });

export function setWatching(watching: boolean): void {
  try {
    if (watching) sessionStorage.setItem('clew.watch', '1');
    else sessionStorage.removeItem('clew.watch');
  } catch {
    // no storage: the choice lasts until the page is reloaded
  }
  prefs.set({ watching });
}
