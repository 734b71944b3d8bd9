/**
 * Join the table: the join code (typed, or from the link in the referee's QR code), then the
 * seat. The referee joins with the referee code. A phone can also just watch.
 */
import { useEffect, useState } from 'preact/hooks';
import { codesFromSearch, isCode, normaliseCode } from '../net/credentials.js';
import { css } from '../logic/colors.js';
import { CodeField, NOT_A_CODE } from '../ui/CodeField.js';
import { useConnection, useTableView } from '../ui/context.js';
import { setWatching } from '../ui/prefs.js';
import { go } from '../ui/route.js';

/** The codes in the link, read once; the address bar is then cleaned so the code is not left on show. */
const linkCodes = codesFromSearch(location.search);
if (linkCodes.code || linkCodes.referee) history.replaceState(null, '', location.pathname + location.hash);

export function JoinScreen() {
  const conn = useConnection();
  const view = useTableView();
  const [mode, setMode] = useState<'player' | 'referee'>(linkCodes.referee ? 'referee' : 'player');
  const [code, setCode] = useState(linkCodes.referee ?? linkCodes.code ?? view.credentials?.code ?? '');
  const [step, setStep] = useState<'code' | 'seat'>(linkCodes.code || (view.joinProblem && view.credentials) ? 'seat' : 'code');
  const [problem, setProblem] = useState<string | null>(view.joinProblem);
  const [busy, setBusy] = useState(false);
  const players = view.snapshot?.players ?? [];

  const joinReferee = async (c: string) => {
    setBusy(true);
    const ack = await conn.join({ role: 'referee', code: c });
    setBusy(false);
    if (ack.ok) go('table');
    else setProblem(ack.message);
  };
  const joinSeat = async (player: string) => {
    setBusy(true);
    const ack = await conn.join({ role: 'player', code: normaliseCode(code), player });
    setBusy(false);
    if (ack.ok) go('table');
    else {
      setProblem(ack.message);
      if (ack.code === 'auth/bad-code') setStep('code');
    }
  };

  // A referee link joins at once, as soon as the table answers.
  useEffect(() => {
    if (linkCodes.referee && view.status === 'online' && !view.credentials && !busy && !problem) {
      const c = linkCodes.referee;
      linkCodes.referee = undefined;
      void joinReferee(c);
    }
  }, [view.status]);

  const submitCode = (e: Event) => {
    e.preventDefault();
    const c = normaliseCode(code);
    if (!isCode(c)) {
      setProblem(NOT_A_CODE);
      return;
    }
    setProblem(null);
    if (mode === 'referee') void joinReferee(c);
    else setStep('seat');
  };

  return (
    <section class="join" data-testid="join">
      <h1 class="big">{mode === 'referee' ? 'Referee' : 'Join the table'}</h1>
      {problem && (
        <p class="problem" role="alert" data-testid="join-problem">
          {problem}
        </p>
      )}
      {step === 'code' ? (
        <form onSubmit={submitCode} class="stack">
          <CodeField label={mode === 'referee' ? 'Referee code' : 'Join code'} value={code} onInput={setCode} placeholder={mode === 'referee' ? 'ABCD2345' : 'ABCDE'} testid="code-input" />
          <button class="btn primary" type="submit" disabled={busy} data-testid="code-submit">
            {mode === 'referee' ? 'Join as referee' : 'Next: choose your seat'}
          </button>
          <p class="hint">Or scan the QR code on the referee’s phone with the camera app.</p>
          <div class="row">
            <button type="button" class="btn" onClick={() => { setMode(mode === 'referee' ? 'player' : 'referee'); setProblem(null); }} data-testid="switch-role">
              {mode === 'referee' ? 'I’m a player' : 'I’m the referee'}
            </button>
            <button type="button" class="btn" onClick={() => { setWatching(true); go('table'); }} data-testid="just-watch">
              Just watch
            </button>
          </div>
        </form>
      ) : (
        <div class="stack">
          <p>Which seat is yours?</p>
          {players.length === 0 && <p class="hint">Waiting for the table…</p>}
          {players.map((p) => (
            <button key={p.id} class="btn seat" disabled={busy} onClick={() => void joinSeat(p.id)} data-testid={`seat-${p.id}`}>
              {p.color && <span class="swatch" style={{ background: css(p.color) }} aria-hidden="true" />}
              {p.name}
            </button>
          ))}
          <button class="btn" onClick={() => setStep('code')}>
            Back
          </button>
        </div>
      )}
    </section>
  );
}
