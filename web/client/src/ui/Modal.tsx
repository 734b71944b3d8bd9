/** A bottom sheet for choices (a die's faces, a facing): big targets near the thumb. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls of the sheet Tab may reach, in order. */
function focusables(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.getClientRects().length > 0);
}

export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  // The handler below is installed once; it calls the latest onClose (often a new function each render).
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    // A dialog that says it is modal must behave so: focus moves into it (the first choice, not the
    // "×" above the choices, when there is one), Tab stays inside, and on close focus goes back to
    // what opened it, so a keyboard or screen-reader user is not left on the page behind.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = box.current;
    if (el) {
      const all = focusables(el);
      const first = all.find((e) => !e.closest('.modal-head')) ?? all[0] ?? el;
      first.focus();
    }
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        close.current();
        return;
      }
      if (e.key !== 'Tab' || !box.current) return;
      const all = focusables(box.current);
      if (all.length === 0) {
        e.preventDefault();
        return;
      }
      const at = document.activeElement instanceof HTMLElement ? all.indexOf(document.activeElement) : -1;
      // Wrap at either end, and bring back focus that got out (a tap on the page behind).
      if (e.shiftKey && at <= 0) {
        e.preventDefault();
        all[all.length - 1]!.focus();
      } else if (!e.shiftKey && (at === -1 || at === all.length - 1)) {
        e.preventDefault();
        all[0]!.focus();
      }
    };
    window.addEventListener('keydown', key);
    return () => {
      window.removeEventListener('keydown', key);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <div class="modal-back" onClick={onClose} data-testid="modal">
      <div ref={box} class="modal" role="dialog" aria-modal="true" aria-label={title} tabindex={-1} onClick={(e) => e.stopPropagation()}>
        <div class="modal-head">
          <h2>{title}</h2>
          <button class="btn small" onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
