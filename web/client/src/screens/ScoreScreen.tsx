/**
 * Score a sheet: copy a finished paper sheet onto the phone (drag across cells to draw a worm, tap
 * to add organs and foods), see every problem marked on the grid as you go, and the score drawn as
 * the sheet's tracks with the symbols circled, the total and the rubric line. Works with no table.
 * Or read a photo of the sheet with the clew server's reader: its sheet comes into the editor (one
 * undoable edit) and what the reader was not sure of is listed, to go to and confirm one by one.
 * Joined to a finished Worm & Cozy table, the score can be given to a seat (GivePaper).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { OrganType, ShapeName } from '../../../../shared/games/worm-and-cozy/index.js';
import { ORGAN_TYPES, SHAPE_NAMES, geometry, getChapter } from '../../../../shared/games/worm-and-cozy/index.js';
import { scoreSheet, sheetSchema, validateSheet } from '../../../../shared/games/worm-and-cozy/sheet.js';
import { Board, type DragHandlers } from '../games/cozy/Board.js';
import { GivePaper } from '../games/cozy/GivePaper.js';
import { ScoreTracks } from '../games/cozy/ScoreTracks.js';
import { CHAPTERS } from '../logic/setup.js';
import { addOrgan, addWorm, cellsInMessages, emptySheet, eraseAt, extendPath, fromSheetJson, setShape, shapesOfPath, toSheetJson, toggleFilled, toggleFood, type Edit, type EditorSheet } from '../logic/sheet-editor.js';
import { doubtView, readSheetPhoto, type ReadPreview, type SheetDoubt } from '../logic/sheet-photo.js';
import { DieFace } from '../ui/DieFace.js';

type Tool = { kind: 'worm' } | { kind: 'organ'; organ: OrganType } | { kind: 'food' } | { kind: 'fill' } | { kind: 'erase' };

const STORE = 'clew.sheet';

/** The doubts of the last photo read, with the sheet the editor held before it (undoing to it drops them). */
interface PhotoDoubts {
  doubts: (SheetDoubt & { confirmed: boolean })[];
  preview: ReadPreview | null;
  before: EditorSheet;
}

function load(): EditorSheet {
  try {
    const raw = localStorage.getItem(STORE);
    if (raw) {
      const parsed = sheetSchema.safeParse(JSON.parse(raw));
      const s = parsed.success ? fromSheetJson(parsed.data) : null;
      if (s && CHAPTERS.some((c) => c.id === s.chapter)) return s;
    }
  } catch {
    // a sheet from an older version, or no storage: start empty
  }
  return emptySheet(CHAPTERS[0]!.id);
}

export function ScoreScreen() {
  const [sheet, setSheetState] = useState<EditorSheet>(load);
  const [history, setHistory] = useState<EditorSheet[]>([]);
  const [tool, setTool] = useState<Tool>({ kind: 'worm' });
  const [path, setPath] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [importing, setImporting] = useState<string | null>(null);
  const [photoBusy, setPhotoBusy] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [photo, setPhoto] = useState<PhotoDoubts | null>(null);
  const [focus, setFocus] = useState<number | null>(null);
  const pathRef = useRef<string[]>([]);
  const boardRef = useRef<HTMLDivElement>(null);
  // The sheet and history as last rendered, for an edit that lands after an await (a photo read).
  const latest = useRef({ sheet, history });
  latest.current = { sheet, history };
  const chapter = getChapter(sheet.chapter);
  const g = geometry(chapter);

  useEffect(() => {
    try {
      localStorage.setItem(STORE, JSON.stringify(toSheetJson(sheet)));
    } catch {
      // storage full or off: the sheet still works for this visit
    }
  }, [sheet]);

  const apply = (edit: Edit) => {
    const { sheet: now, history: past } = latest.current;
    setMessage(edit.message ?? null);
    setNote(edit.note ?? null);
    if (edit.sheet !== now) {
      setHistory([...past.slice(-49), now]);
      setSheetState(edit.sheet);
    }
  };

  const undo = () => {
    const back = history[history.length - 1]!;
    setSheetState(back);
    setHistory(history.slice(0, -1));
    setMessage(null);
    setNote(null);
    // Undone back to before the photo: its doubts were about a sheet no longer shown.
    if (photo && back === photo.before) {
      setPhoto(null);
      setFocus(null);
    }
  };

  const onPhoto = async (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = ''; // the same photo may be chosen again
    if (!file) return;
    setPhotoError(null);
    setPhotoBusy(true);
    const r = await readSheetPhoto(file, latest.current.sheet.chapter);
    setPhotoBusy(false);
    if (!r.ok) {
      setPhotoError(r.message);
      return;
    }
    const { reading } = r;
    const before = latest.current.sheet;
    const n = reading.doubts.length;
    apply({ sheet: reading.sheet, note: n ? `Read from the photo. Check the ${n === 1 ? 'one thing' : `${n} things`} the reader was not sure of, below the grid.` : 'Read from the photo; the reader was sure of every cell.' });
    setPhoto(n ? { doubts: reading.doubts.map((d) => ({ ...d, confirmed: false })), preview: reading.preview, before } : null);
    setFocus(null);
  };

  const goTo = (i: number) => {
    setFocus(i);
    boardRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };
  const confirmDoubt = (i: number) => {
    if (!photo) return;
    const doubts = photo.doubts.map((d, k) => (k === i ? { ...d, confirmed: !d.confirmed } : d));
    setPhoto({ ...photo, doubts });
    // On to the next one still to check, if any.
    const next = doubts.findIndex((d, k) => k > i && !d.confirmed);
    setFocus(doubts[i]!.confirmed && next >= 0 ? next : i);
  };

  const json = toSheetJson(sheet);
  const validation = useMemo(() => validateSheet(json), [sheet]);
  const score = useMemo(() => (validation.ok ? scoreSheet(json) : null), [validation]);
  const errors = validation.ok ? [] : validation.errors;
  const warnings = validation.ok ? validation.value.warnings : [];
  const marks = useMemo(() => {
    const m = cellsInMessages([...errors, ...warnings], g);
    // A message about a whole worm ("worm 2 has the shape L but only 3 cells") marks that worm.
    for (const text of [...errors, ...warnings]) {
      const w = /^worm (\d+)\b/.exec(text);
      if (w && cellsInMessages([text], g).size === 0) for (const c of sheet.worms[Number(w[1]) - 1]?.cells ?? []) m.add(c);
    }
    return m;
  }, [validation]);
  const view = validation.ok ? validation.value : null;
  const focused = photo && focus !== null ? photo.doubts[focus] : undefined;

  const drag: DragHandlers | undefined =
    tool.kind === 'worm'
      ? {
          start: (c) => {
            pathRef.current = [c];
            setPath([c]);
          },
          enter: (c) => {
            pathRef.current = extendPath(pathRef.current, c);
            setPath(pathRef.current);
          },
          end: () => {
            const cells = pathRef.current;
            pathRef.current = [];
            setPath([]);
            if (cells.length) apply(addWorm(sheet, cells));
          },
        }
      : undefined;
  const onCell = (cell: string) => {
    if (tool.kind === 'organ') apply(addOrgan(sheet, tool.organ, cell));
    else if (tool.kind === 'food') apply(toggleFood(sheet, cell));
    else if (tool.kind === 'fill') apply(toggleFilled(sheet, cell));
    else if (tool.kind === 'erase') apply(eraseAt(sheet, cell));
  };
  const same = (t: Tool) => t.kind === tool.kind && (t.kind !== 'organ' || (tool.kind === 'organ' && tool.organ === t.organ));

  // While the sheet is invalid the worms are drawn from the raw file (cells that exist only).
  const drawWorms = view
    ? view.worms
    : sheet.worms.map((w, i) => ({
        id: i + 1,
        cells: w.cells.map((c) => g.names.indexOf(c)).filter((c) => c >= 0),
        front: false,
        shape: w.shape ?? null,
        organs: (w.organs ?? []).flatMap((o) => {
          const cell = g.names.indexOf(o.cell);
          return cell < 0 ? [] : [{ type: o.type, cell, ...(o.facing ? { facing: o.facing } : {}), ...(o.filled ? { filled: true } : {}) }];
        }),
        ext: 0,
      }));
  const drawFoods = view ? view.foods : sheet.foods.map((f) => g.names.indexOf(f)).filter((c) => c >= 0);

  return (
    <div class="screen score" data-testid="score-screen">
      <h1 class="screen-title">Score a sheet</h1>
      <label class="field">
        <span>Chapter</span>
        <select value={sheet.chapter} onChange={(e) => apply({ sheet: { ...sheet, chapter: (e.target as HTMLSelectElement).value } })} data-testid="score-chapter">
          {CHAPTERS.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
      <div class="stack">
        <label class={`btn photo-pick${photoBusy ? ' busy' : ''}`} data-testid="photo-pick">
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path d="M4 8 h3 l2 -3 h6 l2 3 h3 v11 h-16 Z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" />
            <circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" stroke-width="2" />
          </svg>
          <span>{photoBusy ? 'Reading the photo…' : 'Read a photo of the sheet'}</span>
          <input type="file" accept="image/*" class="file-input" disabled={photoBusy} onChange={onPhoto} data-testid="sheet-photo" />
        </label>
        {photoBusy && (
          <p class="muted small" role="status">
            Reading the photo of the {chapter.title} sheet…
          </p>
        )}
        {photoError && (
          <p class="problem" role="alert" data-testid="photo-error">
            The photo was not read: {photoError}
          </p>
        )}
      </div>
      <div class="tools" role="toolbar" aria-label="drawing tools">
        <button class={`tool${same({ kind: 'worm' }) ? ' on' : ''}`} onClick={() => setTool({ kind: 'worm' })} data-testid="tool-worm">
          <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
            <path d="M3 17 C7 5, 11 5, 12 12 S18 20, 21 7" fill="none" stroke="#c9707a" stroke-width="4" stroke-linecap="round" />
          </svg>
          <span>Worm</span>
        </button>
        {ORGAN_TYPES.map((o) => (
          <button key={o} class={`tool${same({ kind: 'organ', organ: o }) ? ' on' : ''}`} onClick={() => setTool({ kind: 'organ', organ: o })} data-testid={`tool-${o}`}>
            <DieFace set="cozy-organ" face={o} size={30} decorative />
            <span>{o}</span>
          </button>
        ))}
        <button class={`tool${same({ kind: 'food' }) ? ' on' : ''}`} onClick={() => setTool({ kind: 'food' })} data-testid="tool-food">
          <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
            <circle cx="12" cy="14" r="7" fill="#c0392b" />
            <path d="M12 7 q3 -4 6 -3" stroke="#2e7d32" stroke-width="2" fill="none" />
          </svg>
          <span>Food</span>
        </button>
        <button class={`tool${same({ kind: 'fill' }) ? ' on' : ''}`} onClick={() => setTool({ kind: 'fill' })} data-testid="tool-fill">
          <DieFace set="cozy-organ" face="brain" color="grey" size={30} decorative />
          <span>Fill brain</span>
        </button>
        <button class={`tool${same({ kind: 'erase' }) ? ' on' : ''}`} onClick={() => setTool({ kind: 'erase' })} data-testid="tool-erase">
          <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
            <path d="M5 19 L19 5 M5 5 L19 19" stroke="#b3261e" stroke-width="3" stroke-linecap="round" />
          </svg>
          <span>Erase</span>
        </button>
      </div>
      <p class="muted small" data-testid="tool-hint">
        {tool.kind === 'worm' ? 'Drag across the cells of a worm, from its front if it has one.' : tool.kind === 'organ' ? `Tap a cell of a worm to add ${tool.organ === 'eye' ? 'an' : 'a'} ${tool.organ}.` : tool.kind === 'food' ? 'Tap a blank cell to add or remove a food.' : tool.kind === 'fill' ? 'Tap a brain that was filled in.' : 'Tap an organ, food or worm to erase it.'}
      </p>
      <div ref={boardRef} class="doubt-focus" data-testid="score-board">
        <Board chapter={chapter} worms={drawWorms} foods={drawFoods} marks={marks} chosen={path} highlight={focused ? new Set(focused.cells) : undefined} onCell={onCell} drag={drag} label="the sheet being scored" />
      </div>
      {message && (
        <p class="warn" data-testid="editor-message">
          {message}
        </p>
      )}
      {note && (
        <p class="muted small" data-testid="editor-note">
          {note}
        </p>
      )}
      <div class="row">
        <button class="btn" disabled={history.length === 0} onClick={undo} data-testid="editor-undo">
          ↶ Undo
        </button>
        <button
          class="btn"
          disabled={sheet.worms.length === 0 && sheet.foods.length === 0}
          onClick={() => {
            apply({ sheet: emptySheet(sheet.chapter) });
            setPhoto(null);
            setFocus(null);
          }}
          data-testid="editor-clear"
        >
          Clear
        </button>
      </div>
      {photo && (
        <section class="card doubts" data-testid="photo-doubts">
          <h2>
            Check what the reader was not sure of ({photo.doubts.filter((d) => !d.confirmed).length} of {photo.doubts.length} left)
          </h2>
          <p class="muted small">Tap one to see its cells on the grid. If your paper shows something else, fix it with the tools above; then confirm it.</p>
          <ol>
            {photo.doubts.map((d, i) => {
              const crop = focus === i && photo.preview ? doubtView(photo.preview, d.cells) : null;
              return (
                <li key={i} class={`doubt${focus === i ? ' on' : ''}${d.confirmed ? ' done' : ''}`} data-testid="photo-doubt">
                  <button class="doubt-what" aria-pressed={focus === i} onClick={() => goTo(i)} data-testid="doubt-go">
                    {d.affectsScore && <span class="badge warn">may change the score</span>} <span>{d.what}</span>
                    {d.options.length > 1 && <span class="muted small"> (or: {d.options.slice(1).join(', ')})</span>}
                  </button>
                  {crop && photo.preview && (
                    <svg class="doubt-crop" viewBox={`${crop.x} ${crop.y} ${crop.w} ${crop.h}`} role="img" aria-label={`the photo at ${d.cells.join(', ')}`}>
                      <image href={photo.preview.src} x="0" y="0" width={photo.preview.width} height={photo.preview.height} />
                    </svg>
                  )}
                  <button class="btn small-text" onClick={() => confirmDoubt(i)} data-testid="doubt-confirm">
                    {d.confirmed ? '✓ Confirmed' : 'Confirm'}
                  </button>
                </li>
              );
            })}
          </ol>
        </section>
      )}
      {sheet.worms.some((w) => w.cells.length > 5) && (
        <div class="stack">
          {sheet.worms.map((w, i) =>
            w.cells.length > 5 ? (
              <label key={i} class="field" data-testid={`grown-${i + 1}`}>
                <span>
                  Worm {i + 1} grew from
                  {shapesOfPath(g, w.cells).length > 1 && <span class="muted small"> ({shapesOfPath(g, w.cells).join(' or ')} fit along it; the drawing cannot tell which)</span>}
                </span>
                <select value={w.shape ?? ''} onChange={(e) => apply({ sheet: setShape(sheet, i, ((e.target as HTMLSelectElement).value || null) as ShapeName | null) })}>
                  <option value="">(unknown)</option>
                  {SHAPE_NAMES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
            ) : null,
          )}
        </div>
      )}
      {errors.length > 0 && (
        <section class="card problems" data-testid="sheet-problems">
          <h2>Problems ({errors.length})</h2>
          <ul>
            {errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </section>
      )}
      {warnings.length > 0 && (
        <ul class="warnings">
          {warnings.map((w, i) => (
            <li key={i} class="warn">
              {w}
            </li>
          ))}
        </ul>
      )}
      {score?.ok && (
        <section class="card" data-testid="sheet-score">
          <h2>Score</h2>
          <ScoreTracks chapter={chapter} score={score.score} />
        </section>
      )}
      <GivePaper sheet={json} valid={!!score?.ok} />
      <details class="card">
        <summary>Sheet file (for npm run score)</summary>
        <pre class="json" data-testid="sheet-json">
          {JSON.stringify(json)}
        </pre>
        {importing === null ? (
          <button class="btn" onClick={() => setImporting('')}>
            Load a sheet file
          </button>
        ) : (
          <div class="stack">
            <textarea rows={4} value={importing} onInput={(e) => setImporting((e.target as HTMLTextAreaElement).value)} aria-label="sheet file" />
            <button
              class="btn"
              onClick={() => {
                try {
                  const parsed = sheetSchema.safeParse(JSON.parse(importing));
                  const next = parsed.success ? fromSheetJson(parsed.data) : null;
                  if (!next) throw new Error(parsed.success ? 'the chapter must be a bundled one, by id' : parsed.error.issues[0]?.message ?? 'not a sheet');
                  apply({ sheet: next });
                  setImporting(null);
                } catch (error) {
                  setMessage(`That is not a sheet file: ${(error as Error).message}`);
                }
              }}
            >
              Load
            </button>
          </div>
        )}
      </details>
    </div>
  );
}
