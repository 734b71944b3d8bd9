/** The table's camera, buttons, dice reader and log, each with a green or red mark and its message. */
import type { HardwareStatus } from '../../../../shared/protocol.js';

function Line({ label, ok, detail }: { label: string; ok: boolean; detail?: string | undefined }) {
  return (
    <li class={ok ? 'ok' : 'bad'}>
      <span class="mark" aria-hidden="true">
        {ok ? '●' : '▲'}
      </span>
      <b>{label}</b>
      {detail && <span class="muted"> {detail}</span>}
    </li>
  );
}

export function Hardware({ hardware }: { hardware: HardwareStatus }) {
  return (
    <ul class="hardware" data-testid="hardware">
      <Line label={`Camera: ${hardware.camera.kind}`} ok={hardware.camera.ok} detail={hardware.camera.message} />
      {hardware.buttons.length === 0 && <Line label="Buttons: on the phones only" ok={true} />}
      {hardware.buttons.map((b, i) => (
        <Line key={i} label={`Buttons: ${b.kind}`} ok={b.ok} detail={b.message} />
      ))}
      <Line label={`Dice reader${hardware.model.backend ? ` (${hardware.model.backend})` : ''}`} ok={hardware.model.ok} detail={hardware.model.message} />
      <Line label="Game log" ok={hardware.log.ok} detail={hardware.log.message ?? (hardware.log.entries !== undefined ? `${hardware.log.entries} entries` : undefined)} />
    </ul>
  );
}
