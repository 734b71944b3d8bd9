/**
 * The referee's setup: the join code and its QR code for the players, the new game (which game,
 * its preset or chapter, the players and their dice colours), and the table's hardware.
 */
import { useMemo, useState } from 'preact/hooks';
import type { GameId } from '../../../../shared/game.js';
import { COLOR_NAMES, css } from '../logic/colors.js';
import { CHAPTERS, GAME_INFO, GAME_ORDER, PRESET_CHOICES, SEAT_COLORS, formFromTable, freeColor, formProblem, inviteOrigin, setupOptions, switchGame, type SetupForm } from '../logic/setup.js';
import { useConnection, useTableView } from '../ui/context.js';
import { Hardware } from '../ui/Hardware.js';
import { Qr } from '../ui/Qr.js';
import { go } from '../ui/route.js';

/** A piecepack's 24 tiles less the start line (2) and the pylon (1). */
const OBSTACLE_TILES = 21;

function Choice<T extends string>({ value, options, onChange, name }: { value: T; options: readonly { id: T; label: string }[]; onChange: (v: T) => void; name: string }) {
  return (
    <div class="choices" role="radiogroup" aria-label={name}>
      {options.map((o) => (
        <button key={o.id} role="radio" aria-checked={o.id === value} class={`choice${o.id === value ? ' on' : ''}`} onClick={() => onChange(o.id)} data-testid={`${name}-${o.id}`}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

function Invite() {
  const { snapshot } = useTableView();
  const [showReferee, setShowReferee] = useState(false);
  const you = snapshot!.you;
  if (!you.joinCode) return null;
  const origin = inviteOrigin(location, you.lanUrl);
  const url = `${origin}/?code=${you.joinCode}`;
  return (
    <section class="card invite" data-testid="invite">
      <h2>Players join with the code</h2>
      <p class="join-code" data-testid="join-code">
        {you.joinCode}
      </p>
      <div class="invite-row">
        <Qr text={url} label={`QR code to join: ${url}`} />
        <p class="muted small">Scan the QR code with the phone's camera app, or open {new URL(origin).host} and type the code.</p>
      </div>
      {you.refereeCode && (
        <button class="btn small-text" onClick={() => setShowReferee(!showReferee)} data-testid="show-referee-code">
          {showReferee ? `Referee code: ${you.refereeCode}` : 'Show the referee code (for a second referee)'}
        </button>
      )}
    </section>
  );
}

function Seats({ form, setForm }: { form: SetupForm; setForm: (f: SetupForm) => void }) {
  const info = GAME_INFO[form.game];
  const [colouring, setColouring] = useState<number | null>(null);
  const palette = info.colors === 'die' ? SEAT_COLORS.filter((c) => COLOR_NAMES.includes(c)) : SEAT_COLORS;
  const update = (i: number, patch: Partial<SetupForm['seats'][number]>) => setForm({ ...form, seats: form.seats.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <div class="seats">
      {form.seats.map((s, i) => (
        <div key={i} class="seat-row">
          {/* No colour (chosen on purpose) is said in words: an empty box read as an unticked checkbox. */}
          <button class={`swatch-btn${s.color ? '' : ' no-colour'}`} style={s.color ? { background: css(s.color) } : undefined} onClick={() => setColouring(colouring === i ? null : i)} aria-label={`dice colour of seat ${i + 1}: ${s.color ?? 'none'}`} data-testid={`seat-color-${i}`}>
            {!s.color && <span aria-hidden="true">no colour</span>}
          </button>
          <input class="name-input" value={s.name} maxLength={40} onInput={(e) => update(i, { name: (e.target as HTMLInputElement).value })} aria-label={`name of seat ${i + 1}`} data-testid={`seat-name-${i}`} />
          <button class="btn small" disabled={form.seats.length <= info.players.min} onClick={() => setForm({ ...form, seats: form.seats.filter((_, j) => j !== i) })} aria-label={`remove seat ${i + 1}`}>
            −
          </button>
          {colouring === i && (
            <div class="palette" role="radiogroup" aria-label="dice colour">
              {palette.map((c) => (
                <button key={c} role="radio" aria-checked={s.color === c} class={`swatch-btn${s.color === c ? ' on' : ''}`} style={{ background: css(c) }} aria-label={c} onClick={() => { update(i, { color: c }); setColouring(null); }} />
              ))}
              {info.colors === 'optional' && (
                <button class="btn small" onClick={() => { setForm({ ...form, seats: form.seats.map((x, j) => (j === i ? { name: x.name } : x)) }); setColouring(null); }}>
                  none
                </button>
              )}
            </div>
          )}
        </div>
      ))}
      {form.seats.length < info.players.max && (
        <button
          class="btn"
          data-testid="add-seat"
          onClick={() => setForm({ ...form, seats: [...form.seats, { name: `Player ${form.seats.length + 1}`, color: freeColor(form.seats) }] })}
        >
          + Add a player
        </button>
      )}
    </div>
  );
}

function GameOptions({ form, setForm }: { form: SetupForm; setForm: (f: SetupForm) => void }) {
  switch (form.game) {
    case 'worm-and-cozy':
      return (
        <>
          <label class="field">
            <span>Chapter (game sheet)</span>
            <select value={form.chapter} onChange={(e) => setForm({ ...form, chapter: (e.target as HTMLSelectElement).value })} data-testid="chapter">
              {CHAPTERS.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </label>
          <Choice name="cozy-dice" value={form.cozyDice} onChange={(v) => setForm({ ...form, cozyDice: v })} options={[{ id: 'standard', label: 'Three d6' }, { id: 'cozy', label: 'Cozy icon dice' }]} />
        </>
      );
    case 'the-worm-is-drawn':
      return (
        <>
          <Choice name="preset" value={form.preset} onChange={(v) => setForm({ ...form, preset: v })} options={PRESET_CHOICES} />
          <Choice name="twid-dice" value={form.twidDice} onChange={(v) => setForm({ ...form, twidDice: v })} options={[{ id: 'worm', label: 'Worm dice' }, { id: 'd6', label: 'd6 (6 = worm)' }]} />
        </>
      );
    case 'worm-derby':
      return (
        <>
          <Choice name="derby-rules" value={form.derbyRules} onChange={(v) => setForm({ ...form, derbyRules: v })} options={[{ id: 'basic', label: 'Basic' }, { id: 'advanced', label: 'Cannibal worms' }]} />
          <label class="check">
            <input type="checkbox" checked={form.slalom} onChange={(e) => setForm({ ...form, slalom: (e.target as HTMLInputElement).checked })} data-testid="slalom" /> Slalom (no movable obstacles)
          </label>
          {!form.slalom && (
            <div class="stepper" data-testid="obstacles">
              <span>Obstacle tiles</span>
              <button class="btn small" aria-label="fewer obstacle tiles" onClick={() => setForm({ ...form, obstacleTiles: Math.max(0, (form.obstacleTiles ?? OBSTACLE_TILES) - 1) })} data-testid="obstacles-less">
                −
              </button>
              <b data-testid="obstacles-count">{form.obstacleTiles ?? OBSTACLE_TILES}</b>
              <button class="btn small" aria-label="more obstacle tiles" onClick={() => setForm({ ...form, obstacleTiles: Math.min(OBSTACLE_TILES, (form.obstacleTiles ?? OBSTACLE_TILES) + 1) })}>
                +
              </button>
            </div>
          )}
        </>
      );
    default:
      return null;
  }
}

function NewGame() {
  const conn = useConnection();
  const { snapshot } = useTableView();
  const s = snapshot!;
  const [form, setForm] = useState<SetupForm>(() => formFromTable(s.game, s.options, s.players));
  const problem = useMemo(() => formProblem(form), [form]);
  const [confirming, setConfirming] = useState(false);
  const inProgress = !s.status.finished && s.version > 1;
  // A new game clears the undo stack: a finished game's standings, once replaced, are gone for good.
  const finished = s.status.finished;
  const start = async () => {
    const ack = await conn.send({ type: 'table/setup', game: form.game, options: setupOptions(form) }, `start ${GAME_INFO[form.game].title}`);
    setConfirming(false);
    if (ack.ok) go('table');
  };
  return (
    <section class="card" data-testid="new-game">
      <h2>New game</h2>
      <div class="game-list">
        {GAME_ORDER.map((id: GameId) => (
          <button key={id} class={`game-pick${form.game === id ? ' on' : ''}`} onClick={() => setForm(switchGame(form, id))} aria-pressed={form.game === id} data-testid={`game-${id}`}>
            <b>{GAME_INFO[id].title}</b>
            <span>{GAME_INFO[id].blurb}</span>
          </button>
        ))}
      </div>
      <GameOptions form={form} setForm={setForm} />
      <h3>Players</h3>
      <Seats form={form} setForm={setForm} />
      {problem && (
        <p class="problem" data-testid="setup-problem">
          {problem}
        </p>
      )}
      {confirming ? (
        <div class="stack" data-testid="start-confirming">
          <p class="problem">
            {finished ? `The result of ${s.title} (its final standings) will be gone: undo cannot bring it back.` : `${s.title} is still being played: it ends here, and undo cannot bring it back.`}
          </p>
          <div class="row">
            <button class="btn danger" onClick={() => void start()} data-testid="start-confirm">
              {finished ? 'Start; drop the result' : 'End this game and start'}
            </button>
            <button class="btn" onClick={() => setConfirming(false)} data-testid="start-cancel">
              {finished ? 'Keep the result' : 'Keep playing'}
            </button>
          </div>
        </div>
      ) : (
        <button class="btn primary wide" disabled={problem !== null} onClick={() => (inProgress || finished ? setConfirming(true) : void start())} data-testid="start-game">
          Start {GAME_INFO[form.game].title}
        </button>
      )}
    </section>
  );
}

export function SetupScreen() {
  const { snapshot } = useTableView();
  if (!snapshot) return null;
  return (
    <div class="screen" data-testid="setup-screen">
      <Invite />
      <NewGame />
      <section class="card">
        <h2>The table</h2>
        <Hardware hardware={snapshot.hardware} />
      </section>
    </div>
  );
}
