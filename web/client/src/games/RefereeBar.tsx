/** The referee's table buttons on screen: NEXT (what it means now) and undo. */
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { useConnection } from '../ui/context.js';

export function RefereeBar({ snapshot, next }: { snapshot: TableSnapshot; next: string | null }) {
  const conn = useConnection();
  if (snapshot.you.role !== 'referee') return null;
  return (
    <div class="referee-bar row" data-testid="referee-bar">
      {next && (
        <button class="btn primary" onClick={() => void conn.send({ type: 'button', button: 'NEXT' }, next)} data-testid="next">
          {next}
        </button>
      )}
      <button class="btn" onClick={() => void conn.send({ type: 'undo' }, 'undo')} data-testid="undo">
        ↶ Undo
      </button>
    </div>
  );
}
