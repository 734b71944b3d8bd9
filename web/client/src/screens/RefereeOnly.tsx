/**
 * What a phone that is not the referee's sees on the referee's screens (`#/setup`, `#/teach`,
 * reached by a link or a typed address): who may use them, the way back to the table, and the
 * referee code for the phone that is the referee's after all. Never the seat picker: a seated
 * player tapping a seat there would have moved to another seat mid-game without a word.
 */
import { useState } from 'preact/hooks';
import { isCode, normaliseCode } from '../net/credentials.js';
import { CodeField, NOT_A_CODE } from '../ui/CodeField.js';
import { useConnection, useTableView } from '../ui/context.js';
import { go } from '../ui/route.js';

export function RefereeOnly({ what }: { what: 'setup' | 'teach' }) {
  const conn = useConnection();
  const { snapshot } = useTableView();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const seated = snapshot?.you.role === 'player';
  const submit = async (e: Event) => {
    e.preventDefault();
    const c = normaliseCode(code);
    if (!isCode(c)) {
      setProblem(NOT_A_CODE);
      return;
    }
    setBusy(true);
    const ack = await conn.join({ role: 'referee', code: c });
    setBusy(false);
    // Joined: this route now shows the referee's screen itself.
    if (!ack.ok) setProblem(ack.message);
  };
  return (
    <section class="join stack" data-testid="referee-only">
      <h1 class="screen-title">{what === 'setup' ? 'Only the referee sets up the table' : 'Only the referee teaches clew the dice'}</h1>
      <p>{what === 'setup' ? 'The new game, the join code and the table’s hardware are on the referee’s phone.' : 'Teaching clew your dice is done on the referee’s phone.'}</p>
      <button class="btn primary wide" onClick={() => go('table')} data-testid="back-to-table">
        Back to the table
      </button>
      <h2>Is this the referee’s phone?</h2>
      <form onSubmit={(e) => void submit(e)} class="stack">
        <CodeField label="Referee code" value={code} onInput={setCode} placeholder="ABCD2345" testid="referee-code-input" />
        {problem && (
          <p class="problem" role="alert" data-testid="referee-code-problem">
            {problem}
          </p>
        )}
        <button class="btn" type="submit" disabled={busy} data-testid="referee-code-submit">
          Join as referee
        </button>
        {seated && <p class="hint">This phone then leaves its seat and becomes the referee’s.</p>}
      </form>
    </section>
  );
}
