import { useState } from 'react';
import type { GatewayWithKey } from '../api/models.ts';

/** A reading of the first of the gateway's meters, as an example body (a placeholder serial without meters). */
function exampleBody(meterSn: string) {
  const hour = new Date();
  hour.setUTCMinutes(0, 0, 0);
  return { meter_sn: meterSn, readings: [{ ts: hour.toISOString(), import_kwh: 1.5 }] };
}

/** Copies the text: the clipboard API where the page is a secure context, else the selection (plain HTTP on a LAN). */
async function copy(text: string, field: HTMLTextAreaElement | null): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  field?.select();
  document.execCommand('copy');
}

/** The key of a gateway just made or rotated, shown this once, with the lines that push a reading with it. */
export function GatewayKey({ gateway, meterSn }: { gateway: GatewayWithKey; meterSn: string }) {
  const [copied, setCopied] = useState(false);
  const [field, setField] = useState<HTMLTextAreaElement | null>(null);
  const readings = `${window.location.origin}/api/v1/timeseries/electricity/readings`;
  const body = exampleBody(meterSn);
  const curl = `curl -X POST '${readings}' -H 'authorization: Gateway ${gateway.key}' -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
  const mosquitto = `mosquitto_pub -h BROKER_HOST -q 1 -t 'ums/${gateway.id}/readings' -m '${JSON.stringify({ key: gateway.key, ...body })}'`;
  return (
    <section className="panel" aria-labelledby="gateway-key-heading" data-testid="gateway-key">
      <h2 id="gateway-key-heading">The key of {gateway.name}</h2>
      <p>
        <strong>Copy it now: it is shown this once.</strong> The service keeps only a hash of it; a lost key is replaced
        with "Rotate key".
      </p>
      <label htmlFor="gateway-key-value">Key</label>
      <div className="row">
        <textarea id="gateway-key-value" ref={setField} readOnly rows={1} cols={40} value={gateway.key} />
        <button
          type="button"
          onClick={() => {
            void copy(gateway.key, field).then(() => setCopied(true));
          }}
        >
          Copy key
        </button>
        <span role="status">{copied ? 'Copied' : ''}</span>
      </div>
      <h3>Push a reading over HTTP</h3>
      <pre className="command">{curl}</pre>
      <h3>Or publish it over MQTT</h3>
      <p className="muted">
        When the service has MQTT_URL set to your broker; errors come back on ums/{gateway.id}/errors.
      </p>
      <pre className="command">{mosquitto}</pre>
    </section>
  );
}
