/**
 * "Use this phone as the camera": the phone's back camera, a frame every half second as JPEG over
 * the socket (`frame`), for a table with no camera of its own. Frames are sent only while this
 * screen is open and switched on; the server reads them like any camera.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useConnection, useTableView } from './context.js';

const FRAME_MS = 500;
const MAX_WIDTH = 960;

export function PhoneCamera() {
  const conn = useConnection();
  const { cameraProblem } = useTableView();
  const [on, setOn] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(0);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!on) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let stopped = false;
    const canvas = document.createElement('canvas');
    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem('This browser cannot use the camera here (it needs https or localhost, or a newer browser).');
        setOn(false);
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 960 } }, audio: false });
      } catch (error) {
        setProblem(`The camera could not be opened: ${(error as Error).message}`);
        setOn(false);
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      const v = video.current!;
      v.srcObject = stream;
      await v.play().catch(() => undefined);
      let busy = false;
      timer = setInterval(() => {
        if (busy || !v.videoWidth) return;
        busy = true;
        const scale = Math.min(1, MAX_WIDTH / v.videoWidth);
        canvas.width = Math.round(v.videoWidth * scale);
        canvas.height = Math.round(v.videoHeight * scale);
        canvas.getContext('2d')!.drawImage(v, 0, 0, canvas.width, canvas.height);
        canvas.toBlob(
          (blob) => {
            if (!blob || stopped) {
              busy = false;
              return;
            }
            void blob.arrayBuffer().then((buf) => {
              conn.frame(buf);
              setSent((n) => n + 1);
              busy = false;
            });
          },
          'image/jpeg',
          0.8,
        );
      }, FRAME_MS);
    })();
    return () => {
      stopped = true;
      if (timer) clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [on]);

  return (
    <section class="card" data-testid="phone-camera">
      <h2>Phone as camera</h2>
      {on ? (
        <>
          <video ref={video} class="camera-preview" muted playsInline aria-label="camera preview" />
          <p class="muted small" data-testid="frames-sent">
            {sent} frames sent · hold the phone still above the tray
          </p>
          {cameraProblem && <p class="warn">{cameraProblem}</p>}
          <button class="btn" onClick={() => setOn(false)} data-testid="camera-off">
            Stop the camera
          </button>
        </>
      ) : (
        <>
          <p class="muted small">No camera at the table? Hold this phone above the dice tray.</p>
          {problem && <p class="warn">{problem}</p>}
          <button
            class="btn"
            onClick={() => {
              setProblem(null);
              setSent(0);
              setOn(true);
            }}
            data-testid="camera-on"
          >
            Use this phone as the camera
          </button>
        </>
      )}
    </section>
  );
}
