/** A QR code drawn as SVG on the phone (the qrcode package; nothing fetched). */
import QRCode from 'qrcode';
import { useEffect, useState } from 'preact/hooks';

export function Qr({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#1d1d1f', light: '#ffffff' } }).then(
      (s) => live && setSvg(s),
      () => live && setSvg(null),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return <div class="qr" role="img" aria-label={label} data-testid="qr" data-text={text} dangerouslySetInnerHTML={svg ? { __html: svg } : { __html: '' }} />;
}
