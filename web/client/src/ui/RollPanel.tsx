/**
 * The roll: what the table should roll now, the dice as read (faces drawn with the face art, the
 * confidence under each, unsure ones marked), a tap on a die to correct it or take it out (no die
 * there), a die the camera missed added, "read again", entry
 * by hand, and "use this roll" for whoever runs the table.
 */
import { useState } from 'preact/hooks';
import { DICE_SETS, type DiceSetId, type ObservedDie } from '../../../../shared/dice.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { RollMeaningView } from '../games/RollMeaning.js';
import { confidenceText, countsEntry, diceFromCounts, manualSlots, missingDice, rollMeaning } from '../logic/roll.js';
import { useConnection } from './context.js';
import { DieFace } from './DieFace.js';
import { FacePicker } from './FacePicker.js';
import { Modal } from './Modal.js';

const SOURCE: Record<string, string> = { camera: 'read by the camera', 'phone-camera': 'read by a phone camera', manual: 'entered by hand' };

function RolledDice({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const roll = snapshot.roll!;
  // The die tapped, and the table's version then: a correction is sent as made on that version, so
  // if the roll changed meanwhile (a die taken out by another phone) the server refuses it instead
  // of changing whichever die is now in that place.
  const [tapped, setTapped] = useState<{ index: number; version: number } | null>(null);
  const fixing = tapped?.index ?? null;
  const setFixing = (index: number | null) => setTapped(index === null ? null : { index, version: snapshot.version });
  const madeOn = tapped?.version;
  const die = fixing === null ? null : roll.dice[fixing];
  const joined = snapshot.you.role !== 'viewer';
  return (
    <>
      <div class="dice-row" data-testid="rolled-dice">
        {roll.dice.map((d, i) => {
          const conf = confidenceText(d.confidence);
          const cls = `rolled${d.uncertain ? ' uncertain' : ''}${d.corrected ? ' corrected' : ''}`;
          return (
            // A watcher sees the dice; correcting them is for those who joined (the server would refuse it).
            <button key={i} class={cls} onClick={joined ? () => setFixing(i) : undefined} disabled={!joined} data-testid={`die-${i}`} data-face={d.face} data-color={d.color ?? ""} aria-label={`die ${i + 1}: ${d.face}${d.uncertain ? ', unsure' : ''}${joined ? '. Tap to correct' : ''}`}>
              <DieFace set={d.set} face={d.face} color={d.color} size={64} />
              <span class="conf">{d.added ? 'added' : d.corrected ? `fixed (${[d.readColor, d.readAs !== d.face ? d.readAs : undefined].filter(Boolean).join(' ') || 'checked'})` : d.uncertain ? `check ${conf ?? ''}` : (conf ?? 'by hand')}</span>
            </button>
          );
        })}
      </div>
      {die && fixing !== null && (
        <FacePicker
          set={die.set}
          color={die.color}
          current={die.face}
          title={`Die ${fixing + 1}: what does it show?`}
          onClose={() => setFixing(null)}
          onPick={(face) => {
            setFixing(null);
            if (face !== die.face) void conn.send({ type: 'dice/correct', index: fixing, face }, `die ${fixing + 1} is ${face}`, madeOn);
          }}
          onColor={
            die.color !== undefined
              ? (color) => {
                  setFixing(null);
                  if (color !== die.color) void conn.send({ type: 'dice/correct', index: fixing, face: die.face, color }, `die ${fixing + 1} is ${color}`, madeOn);
                }
              : undefined
          }
          onRemove={
            roll.dice.length > 1
              ? () => {
                  setFixing(null);
                  void conn.send({ type: 'dice/remove', index: fixing }, `take die ${fixing + 1} out`, madeOn);
                }
              : undefined
          }
        />
      )}
      {joined && snapshot.diceRequest && <AddDie snapshot={snapshot} />}
    </>
  );
}

/** "Add a missed die": the request's named dice the roll lacks, or a plain die of each set; then its face. */
function AddDie({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const [step, setStep] = useState<'closed' | 'which' | number>('closed');
  const names = Object.fromEntries(snapshot.players.map((p) => [p.id, p.name]));
  const choices = missingDice(snapshot.diceRequest!, snapshot.roll!.dice, names);
  const open = () => setStep(choices.length === 1 ? 0 : 'which');
  const slot = typeof step === 'number' ? choices[step] : undefined;
  return (
    <>
      <button class="btn small" onClick={open} data-testid="add-die">
        Add a missed die
      </button>
      {step === 'which' && (
        <Modal title="Which die did the camera miss?" onClose={() => setStep('closed')}>
          <div class="slot-list">
            {choices.map((c, i) => (
              <button key={i} class="slot" onClick={() => setStep(i)} data-testid={`add-choice-${i}`}>
                <span class="die-empty" aria-hidden="true">?</span>
                <span>{c.label}</span>
              </button>
            ))}
          </div>
        </Modal>
      )}
      {slot && (
        <FacePicker
          set={slot.set}
          color={slot.color}
          title={`${slot.label}: which face?`}
          onClose={() => setStep('closed')}
          onPick={(face) => {
            setStep('closed');
            const die = slot.color ? { set: slot.set, face, color: slot.color } : { set: slot.set, face };
            void conn.send({ type: 'dice/add', die }, `add ${slot.label}: ${face}`);
          }}
        />
      )}
    </>
  );
}

function ManualEntry({ snapshot, onDone }: { snapshot: TableSnapshot; onDone: () => void }) {
  const conn = useConnection();
  const request = snapshot.diceRequest!;
  const names = Object.fromEntries(snapshot.players.map((p) => [p.id, p.name]));
  const slots = manualSlots(request, names);
  const counting = countsEntry(request);
  const [faces, setFaces] = useState<(string | null)[]>(() => slots.map(() => null));
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [picking, setPicking] = useState<number | null>(null);
  const set: DiceSetId = request.sets[0] ?? 'd6';
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const need = request.count ?? { min: slots.length, max: slots.length };

  const submit = () => {
    let dice: ObservedDie[];
    if (counting) dice = diceFromCounts(set, counts);
    else dice = slots.map((s, i) => (s.color ? { set: s.set, face: faces[i]!, color: s.color } : { set: s.set, face: faces[i]! }));
    void conn.send({ type: 'dice/manual', dice }, 'enter the roll by hand').then((ack) => ack.ok && onDone());
  };
  const ready = counting ? total >= need.min && total <= need.max : faces.every((f) => f !== null);

  return (
    <div class="manual" data-testid="manual-entry">
      {counting ? (
        <>
          <p>
            How many of each face? <b data-testid="manual-total">{total}</b> of {need.max}
          </p>
          <div class="count-grid">
            {DICE_SETS[set].faces.map((face) => (
              <div class="count-cell" key={face}>
                <DieFace set={set} face={face} size={48} />
                <div class="stepper">
                  <button class="btn small" aria-label={`one less ${face}`} onClick={() => setCounts({ ...counts, [face]: Math.max(0, (counts[face] ?? 0) - 1) })}>
                    −
                  </button>
                  <b>{counts[face] ?? 0}</b>
                  <button class="btn small" aria-label={`one more ${face}`} data-testid={`more-${face}`} onClick={() => setCounts({ ...counts, [face]: (counts[face] ?? 0) + 1 })}>
                    +
                  </button>
                </div>
              </div>
            ))}
          </div>
        </>
      ) : (
        <div class="slot-list">
          {slots.map((s, i) => (
            <button key={i} class="slot" onClick={() => setPicking(i)} data-testid={`slot-${i}`}>
              {faces[i] ? <DieFace set={s.set} face={faces[i]!} color={s.color} size={52} /> : <span class="die-empty" aria-hidden="true">?</span>}
              <span>{s.label}</span>
            </button>
          ))}
        </div>
      )}
      {picking !== null && slots[picking] && (
        <FacePicker
          set={slots[picking]!.set}
          color={slots[picking]!.color}
          title={`${slots[picking]!.label}: which face?`}
          onClose={() => setPicking(null)}
          onPick={(face) => {
            setFaces(faces.map((f, j) => (j === picking ? face : f)));
            setPicking(null);
          }}
        />
      )}
      <div class="row">
        <button class="btn primary" disabled={!ready} onClick={submit} data-testid="manual-submit">
          Enter this roll
        </button>
        <button class="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function RollPanel({ snapshot, full = false }: { snapshot: TableSnapshot; full?: boolean }) {
  const conn = useConnection();
  const request = snapshot.diceRequest;
  const roll = snapshot.roll;
  // Entry by hand is for the dice asked for when it was opened: a new request (the next hour), or a
  // roll arriving from elsewhere, closes it, rather than leaving last hour's form open.
  const entryKey = `${JSON.stringify(request)}|${roll ? 'roll' : 'none'}`;
  const [manualFor, setManualFor] = useState<string | null>(null);
  const manual = manualFor === entryKey;
  const setManual = (open: boolean) => setManualFor(open ? entryKey : null);
  const referee = snapshot.you.role === 'referee';
  const joined = snapshot.you.role !== 'viewer';
  if (!request && !roll) {
    return full ? (
      <section class="card" data-testid="roll-panel">
        <p class="muted">No dice are expected right now: {snapshot.status.headline}</p>
      </section>
    ) : null;
  }
  const meaning = roll ? rollMeaning(snapshot.game, snapshot.state, roll) : null;
  return (
    <section class="card roll" data-testid="roll-panel">
      {request && (
        <p class="prompt" data-testid="roll-prompt">
          {request.prompt}
        </p>
      )}
      {roll ? (
        <>
          <RolledDice snapshot={snapshot} />
          <p class="muted small">
            {roll.dice.length} {roll.dice.length === 1 ? 'die' : 'dice'} {SOURCE[roll.source]}
            {joined ? ' · tap a die to correct it or take it out' : ''}
          </p>
          {meaning && <RollMeaningView game={snapshot.game} meaning={meaning} state={snapshot.state} players={snapshot.players} />}
          {roll.needsConfirmation && <p class="warn">Check the dice before using this roll.</p>}
        </>
      ) : (
        !manual && <p class="muted" data-testid="roll-waiting">Waiting for the dice…</p>
      )}
      {manual && request ? (
        <ManualEntry snapshot={snapshot} onDone={() => setManual(false)} />
      ) : (
        joined && (
          <div class="row wrap">
            {referee && roll && (
              <button class="btn primary" onClick={() => void conn.send({ type: 'dice/confirm' }, 'use this roll')} data-testid="use-roll" disabled={meaning?.ok === false}>
                Use this roll
              </button>
            )}
            {request && (
              <button class="btn" onClick={() => void conn.send({ type: 'dice/read' }, 'read the dice again')} data-testid="read-again">
                Read again
              </button>
            )}
            {request && (
              <button class="btn" onClick={() => setManual(true)} data-testid="enter-by-hand">
                Enter by hand
              </button>
            )}
          </div>
        )
      )}
      {!referee && roll && joined && <p class="muted small">The referee uses the roll.</p>}
    </section>
  );
}
