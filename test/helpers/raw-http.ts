import { connect } from 'node:net';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (always, once the reply is read). */
  closed: boolean;
}

/**
 * Writes raw bytes to a listening server and reads what comes back until the server closes the
 * connection, which every use expects (the test's timeout bounds the wait). For what `app.inject`
 * cannot send: a body that never completes, a request line or headers larger than the parser accepts.
 */
export function rawRequest(port: number, request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      try {
        resolve({ ...parseReply(Buffer.concat(chunks).toString('utf8')), closed: true });
      } catch (error) {
        reject(error);
      }
    });
    socket.write(request);
  });
}

function parseReply(text: string): Omit<RawReply, 'closed'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).trim().toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}
