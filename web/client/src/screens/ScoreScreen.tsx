/**
 * Score a sheet: copy a finished paper sheet onto the phone (drag across cells to draw a worm, tap
 * to add organs and foods), see every problem marked on the grid as you go, and the score drawn as
 * the sheet's tracks with the symbols circled, the total and the rubric line. Works with no table.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { OrganType, ShapeName } from '../../../../shared/games/worm-and-cozy/index.js';
import { ORGAN_TYPES, SHAPE_NAMES, geometry, getChapter } from '../../../../shared/games/worm-and-cozy/index.js';
import { scoreSheet, sheetSchema, validateSheet } from '../../../../shared/games/worm-and-cozy/sheet.js';
import { Board, type DragHandlers } from '../games/cozy/Board.js';
import { ScoreTracks } from '../games/cozy/ScoreTracks.js';
import { CHAPTERS } from '../logic/setup.js';
import { addOrgan, addWorm, cellsInMessages, emptySheet, eraseAt, extendPath, fromSheetJson, setShape, toSheetJson, toggleFilled, toggleFood, type Edit, type EditorSheet } from '../logic/sheet-editor.js';
import { DieFace } from '../ui/DieFace.js';

type Tool = { kind: 'worm' } | { kind: 'organ'; organ: OrganType } | { kind: 'food' } | { kind: 'fill' } | { kind: 'erase' };

const STORE = 'clew.sheet';

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
  const [importing, setImporting] = useState<string | null>(null);
  const pathRef = useRef<string[]>([]);
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
    setMessage(edit.message ?? null);
    if (edit.sheet !== sheet) {
      setHistory([...history.slice(-49), sheet]);
      setSheetState(edit.sheet);
    }
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
      <Board chapter={chapter} worms={drawWorms} foods={drawFoods} marks={marks} chosen={path} onCell={onCell} drag={drag} label="the sheet being scored" />
      {message && (
        <p class="warn" data-testid="editor-message">
          {message}
        </p>
      )}
      <div class="row">
        <button class="btn" disabled={history.length === 0} onClick={() => { setSheetState(history[history.length - 1]!); setHistory(history.slice(0, -1)); setMessage(null); }} data-testid="editor-undo">
          ↶ Undo
        </button>
        <button class="btn" disabled={sheet.worms.length === 0 && sheet.foods.length === 0} onClick={() => apply({ sheet: emptySheet(sheet.chapter) })} data-testid="editor-clear">
          Clear
        </button>
      </div>
      {sheet.worms.some((w) => w.cells.length > 5) && (
        <div class="stack">
          {sheet.worms.map((w, i) =>
            w.cells.length > 5 ? (
              <label key={i} class="field">
                <span>Worm {i + 1} grew from</span>
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
