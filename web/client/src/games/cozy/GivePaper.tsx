/**
 * On *Score a sheet*, when the phone is joined to a Worm & Cozy table of the same chapter: "Give
 * this score to <seat>". A seated phone gives it to its own seat, the referee picks the seat. It is
 * a table move (`paperSheet`): logged, undone with BACK, seen by every phone; the table's end
 * screen then scores that seat from this sheet, marked "from paper".
 */
import { useState } from 'preact/hooks';
import type { SheetJson } from '../../../../../shared/games/worm-and-cozy/sheet.js';
import { firstPaperSeat, paperGiving, type PaperSeat } from '../../logic/paper.js';
import { useConnection, useTableView } from '../../ui/context.js';

function seatNote(seat: PaperSeat): string | null {
  if (seat.paperGiven) return `${seat.name} already has a paper sheet: this one replaces it.`;
  if (seat.twinUsed) return `${seat.name} also kept a digital twin: the paper sheet is the real one, so it counts.`;
  return null;
}

export function GivePaper({ sheet, valid }: { sheet: SheetJson; valid: boolean }) {
  const conn = useConnection();
  const { snapshot } = useTableView();
  const giving = paperGiving(snapshot, typeof sheet.chapter === 'string' ? sheet.chapter : '');
  const seats = giving.kind === 'ready' || giving.kind === 'not-over' ? giving.seats : [];
  const [picked, setPicked] = useState<string | null>(null);
  const [given, setGiven] = useState<{ version: number; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (giving.kind === 'none') return null;
  if (giving.kind === 'own-chapter') {
    return (
      <p class="muted small" data-testid="give-paper-chapter">
        The table plays a chapter of its own, {giving.table.title}, which this screen cannot draw: its seats are scored from their digital twins.
      </p>
    );
  }
  if (giving.kind === 'other-chapter') {
    return (
      <p class="muted small" data-testid="give-paper-chapter">
        The table plays {giving.table.title}: choose it above to give this score to a seat.
      </p>
    );
  }
  const seat = seats.find((s) => s.id === picked) ?? seats.find((s) => s.id === firstPaperSeat(seats))!;
  const ready = giving.kind === 'ready' && valid && !busy;
  const give = async () => {
    setBusy(true);
    const ack = await conn.send({ type: 'move', move: { type: 'paperSheet', player: seat.id, sheet } }, `Give ${seat.name} this paper sheet's score`);
    setBusy(false);
    setGiven(ack.ok ? { version: ack.version, name: seat.name } : null);
  };
  const done = given !== null && given.version === snapshot?.version;
  const note = done ? null : seatNote(seat);
  return (
    <section class="card give-paper" data-testid="give-paper-card">
      <h2>At the table</h2>
      {seats.length > 1 && (
        <label class="field">
          <span>Whose sheet is it?</span>
          <select value={seat.id} onChange={(e) => setPicked((e.target as HTMLSelectElement).value)} data-testid="give-paper-seat">
            {seats.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button class="btn primary" disabled={!ready} onClick={() => void give()} data-testid="give-paper">
        Give this score to {seat.name}
      </button>
      {giving.kind === 'not-over' ? (
        <p class="muted small" data-testid="give-paper-why">
          A sheet is scored once the game is over, after {giving.last}; the table is at {giving.hour}.
        </p>
      ) : !valid ? (
        <p class="muted small" data-testid="give-paper-why">
          Fix the problems above first: only a legal sheet can be given.
        </p>
      ) : (
        note && (
          <p class="muted small" data-testid="give-paper-note">
            {note}
          </p>
        )
      )}
      {done && (
        <p class="badge" role="status" data-testid="give-paper-done">
          Given to {given!.name}: the table’s final scores count it, from paper.
        </p>
      )}
    </section>
  );
}
