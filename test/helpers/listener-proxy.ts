import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can freeze the connections that LISTEN (found by the
 * statement in what the client sends): frozen, they stop forwarding either way without closing, as
 * a NAT or firewall that dropped them silently would. Other connections (a pool's) pass as usual.
 */
export async function listenerProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let frozen = false;
  const connections = new Set<{ sockets: [net.Socket, net.Socket]; listener: boolean; held: [net.Socket, Buffer][] }>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const connection = {
      sockets: [client, upstream] as [net.Socket, net.Socket],
      listener: false,
      held: [] as [net.Socket, Buffer][],
    };
    connections.add(connection);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (from === client && chunk.includes('LISTEN ')) connection.listener = true;
        if (frozen && connection.listener) {
          // Kept, with everything after it, until the proxy resumes.
          connection.held.push([to, chunk]);
          client.pause();
          upstream.pause();
          return;
        }
        to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      connections.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of connection.sockets) socket.on('error', close).on('close', close);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;

  return {
    /** The database's connection string through the proxy. */
    url: url.toString(),
    /** Stops forwarding on the LISTEN connections (those made later too, once they LISTEN). */
    freeze() {
      frozen = true;
    },
    /** Forwards what was held and everything after it. */
    resume() {
      frozen = false;
      for (const connection of connections) {
        for (const [to, chunk] of connection.held.splice(0)) to.write(chunk);
        for (const socket of connection.sockets) socket.resume();
      }
    },
    async close() {
      for (const connection of connections) for (const socket of connection.sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
