/**
 * Teach clew your dice: a guided calibration. Roll the dice of one set; the phone shows each die's
 * crop as the camera saw it with the face clew read; confirm it or pick the right face. A few of
 * each face, with progress per face, then save. The reader's accuracy before and after is shown
 * when the server reports it. A saved calibration can be undone. Dice checked during play count
 * too (the server adds them: `vision.learnFromChecks`).
 */
import { useState } from 'preact/hooks';
import { DICE_SETS, DICE_SET_IDS, type DiceSetId } from '../../../../shared/dice.js';
import type { CalibrationStatus } from '../../../../shared/protocol.js';
import { useConnection, useTableView } from '../ui/context.js';
import { DieFace } from '../ui/DieFace.js';
import { FacePicker } from '../ui/FacePicker.js';

/** Labelled crops per face that make a useful calibration (the reader adapts from a few). */
export const TARGET_PER_FACE = 5;

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Since when the dice in play were counted. */
const SINCE = { start: 'so far', save: 'since clew learnt these dice', undo: 'since the undo' } as const;

export function TeachScreen() {
  const conn = useConnection();
  const { snapshot } = useTableView();
  const s = snapshot!;
  const inPlay = s.diceRequest?.sets ?? [];
  const [set, setSet] = useState<DiceSetId>(inPlay[0] ?? s.calibration[0]?.set ?? 'd6');
  const [labelled, setLabelled] = useState<Record<string, string>>({});
  /** This phone's labels since opening the screen, and how many the camera had read right. */
  const [mine, setMine] = useState({ crops: 0, right: 0 });
  // The die whose "Fix" was tapped, and the table's version then: the label is sent as made on it,
  // so a new roll meanwhile makes the server refuse it rather than label another die.
  const [fixingAt, setFixingAt] = useState<{ index: number; version: number } | null>(null);
  const fixing = fixingAt?.index ?? null;
  const status: CalibrationStatus = s.calibration.find((c) => c.set === set) ?? { set, samples: {}, active: false };
  const accuracy = status.accuracy;
  const fitting = status.fitting;
  const faces = DICE_SETS[set].faces;
  const total = faces.reduce((a, f) => a + Math.min(TARGET_PER_FACE, status.samples[f] ?? 0), 0);
  const goal = faces.length * TARGET_PER_FACE;
  // A calibration needs every face: taught only some, clew reads the others far worse (vision-model.md).
  const missing = faces.filter((f) => (status.samples[f] ?? 0) === 0);
  const roll = s.roll;
  const dice = (roll?.dice ?? []).map((d, index) => ({ d, index })).filter(({ d }) => d.set === set);
  // The roll these dice belong to (its dice as the camera placed them), not the table's version: a
  // correction or another phone's move keeps a die labelled, where the version would bring back
  // "Right / Fix" and invite a second label of the same die.
  const rollKey = JSON.stringify((roll?.dice ?? []).map((d) => d.box ?? null));
  const label = (index: number, face: string, madeOn?: number) => {
    const die = roll?.dice[index];
    const read = die ? (die.readAs ?? die.face) : null;
    const key = `${rollKey}:${index}`;
    // Labelled again (a mis-tap changed), the server's label replaces this phone's first one.
    const before = labelled[key];
    void conn.send({ type: 'calibration/label', set, index, face }, `this die shows ${face}`, madeOn).then((ack) => {
      if (!ack.ok) return;
      setLabelled((l) => ({ ...l, [key]: face }));
      setMine((m) => (before === undefined ? { crops: m.crops + 1, right: m.right + (read === face ? 1 : 0) } : { crops: m.crops, right: m.right + (read === face ? 1 : 0) - (read === before ? 1 : 0) }));
    });
  };

  return (
    <div class="screen teach" data-testid="teach-screen">
      <h1 class="screen-title">Teach clew your dice</h1>
      <p class="muted">A few crops of each face of your own dice, in your light, keep the reader near 100% at this table.</p>
      <label class="field">
        <span>Dice</span>
        <select value={set} onChange={(e) => setSet((e.target as HTMLSelectElement).value as DiceSetId)} data-testid="teach-set">
          {DICE_SET_IDS.map((id) => (
            <option key={id} value={id}>
              {DICE_SETS[id].name}
              {inPlay.includes(id) ? ' (in play now)' : ''}
            </option>
          ))}
        </select>
      </label>

      <section class="card">
        <h2>Progress {status.active ? '· in use' : ''}</h2>
        <div class="progress" role="progressbar" aria-valuemin={0} aria-valuemax={goal} aria-valuenow={total}>
          <div style={{ width: `${(100 * total) / goal}%` }} />
        </div>
        <div class="face-progress" data-testid="teach-progress">
          {faces.map((f) => {
            const n = status.samples[f] ?? 0;
            return (
              <div key={f} class={`fp${n >= TARGET_PER_FACE ? ' full' : ''}`}>
                <DieFace set={set} face={f} size={40} />
                <span>
                  {n}/{TARGET_PER_FACE}
                </span>
              </div>
            );
          })}
        </div>
        {(status.fromPlay ?? 0) > 0 && (
          <p class="muted" data-testid="teach-from-play">
            {status.fromPlay === 1 ? '1 of them is a die' : `${status.fromPlay} of them are dice`} checked during play (corrected, or marked
            "check" and used).
          </p>
        )}
        {status.inPlay && status.inPlay.dice > 0 && (
          <p class="muted" data-testid="teach-in-play">
            In play {SINCE[status.inPlay.since]}: clew read {status.inPlay.right} of {status.inPlay.dice} {status.inPlay.dice === 1 ? 'die' : 'dice'} right (
            {pct(status.inPlay.right / status.inPlay.dice)}); it marked {status.inPlay.marked} "check", and misread {status.inPlay.wrongUnmarked} without the mark.
            {status.inPlay.missed + status.inPlay.notDice > 0 &&
              ` It missed ${status.inPlay.missed} ${status.inPlay.missed === 1 ? 'die' : 'dice'}, and ${status.inPlay.notDice} ${status.inPlay.notDice === 1 ? 'box was' : 'boxes were'} taken out as "Not a die".`}
          </p>
        )}
        {mine.crops > 0 && (
          <p class="muted" data-testid="teach-tally">
            Your checks so far: clew read {mine.right} of {mine.crops} right ({pct(mine.right / mine.crops)}).
          </p>
        )}
        {fitting && (
          <p class="accuracy" role="status" data-testid="teach-fitting">
            clew is learning your dice… {fitting.steps > 0 ? `${Math.round((100 * fitting.step) / fitting.steps)}%` : 'starting'} (reading goes on meanwhile)
          </p>
        )}
        {accuracy && (
          <p class="accuracy" data-testid="teach-accuracy">
            Reader on the dice it learnt from{accuracy.crops ? ` (${accuracy.crops})` : ''}: {accuracy.before !== null ? pct(accuracy.before) : '—'} before →{' '}
            <b>{accuracy.after !== null ? pct(accuracy.after) : '—'}</b> after. Dice it has seen; the count in play shows how it reads the next ones.
          </p>
        )}
      </section>

      <section class="card">
        <h2>1. Roll, 2. check each die</h2>
        {dice.length === 0 ? (
          <p class="muted" data-testid="teach-waiting">
            Roll some {DICE_SETS[set].name} dice into the tray{s.diceRequest ? '' : ' (the camera reads when the game expects dice, or press Read)'}.
          </p>
        ) : (
          <div class="teach-dice" data-testid="teach-dice">
            {dice.map(({ d, index }) => {
              const done = labelled[`${rollKey}:${index}`];
              return (
                <div key={index} class={`teach-die${done ? ' done' : ''}`}>
                  <img class="crop" src={`/api/camera/crop?index=${index}&v=${s.version}`} alt={`die ${index + 1} as the camera saw it`} onError={(e) => ((e.target as HTMLImageElement).style.visibility = 'hidden')} />
                  <DieFace set={d.set} face={d.face} color={d.color} size={48} />
                  {done ? (
                    <div class="row">
                      <span class="ok">✓ {done}</span>
                      <button class="btn small" onClick={() => setFixingAt({ index, version: s.version })} aria-label={`change die ${index + 1}'s label`} data-testid={`teach-change-${index}`}>
                        Change
                      </button>
                    </div>
                  ) : (
                    <div class="row">
                      <button class="btn small" onClick={() => label(index, d.face)} data-testid={`teach-right-${index}`}>
                        Right
                      </button>
                      <button class="btn small" onClick={() => setFixingAt({ index, version: s.version })} data-testid={`teach-fix-${index}`}>
                        Fix
                      </button>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        )}
        <button class="btn" onClick={() => void conn.send({ type: 'dice/read' }, 'read the dice')} data-testid="teach-read">
          Read the tray
        </button>
      </section>

      {total > 0 && missing.length > 0 && (
        <p class="muted" data-testid="teach-missing">
          To save, clew needs at least one die of every face; still missing: {missing.join(', ')}. Taught only some faces, it would read the others worse.
        </p>
      )}
      <div class="row wrap">
        <button class="btn primary" disabled={missing.length > 0 || Boolean(fitting)} onClick={() => void conn.send({ type: 'calibration/commit', set }, 'save the calibration')} data-testid="teach-save">
          Save what clew learned
        </button>
        <button class="btn" disabled={!status.active || Boolean(fitting)} onClick={() => void conn.send({ type: 'calibration/undo', set }, 'undo the calibration')} data-testid="teach-undo">
          Undo calibration
        </button>
      </div>
      <section class="card" data-testid="teach-tray">
        <h2>The empty tray</h2>
        <p class="muted">
          A camera fixed over the tray finds dice best when it has seen the tray empty: a patterned cloth, wood grain or a lamp&apos;s bright spot are then the tray, not dice. clew takes it by itself when the tray lies still with no dice on it; or clear the tray, then:
        </p>
        <p data-testid="teach-tray-state" class={s.tray.state === 'moved' ? 'warn' : 'muted'}>
          {s.tray.state === 'none'
            ? `Not shown yet: ${s.tray.message}.`
            : s.tray.state === 'learned'
              ? s.tray.auto
                ? 'Taken by clew from a still, empty tray: dice are found against it.'
                : 'Shown: dice are found against the empty tray.'
              : `The camera moved? ${s.tray.message}.`}
        </p>
        <div class="row wrap">
          <button class="btn" disabled={s.hardware.camera.kind === 'none'} onClick={() => void conn.send({ type: 'tray/learn' }, 'learn the empty tray')} data-testid="teach-tray-learn">
            The tray is empty: learn it
          </button>
          <button class="btn" disabled={s.tray.state === 'none' && !s.tray.auto} onClick={() => void conn.send({ type: 'tray/forget' }, 'forget the empty tray')} data-testid="teach-tray-forget">
            {s.tray.state === 'none' ? 'Do not take it by itself' : 'Forget it'}
          </button>
        </div>
      </section>
      {fixing !== null && roll?.dice[fixing] && (
        <FacePicker
          set={roll.dice[fixing]!.set}
          color={roll.dice[fixing]!.color}
          title={`Die ${fixing + 1} really shows…`}
          onClose={() => setFixingAt(null)}
          onPick={(face) => {
            const at = fixingAt!;
            setFixingAt(null);
            label(at.index, face, at.version);
          }}
        />
      )}
    </div>
  );
}
