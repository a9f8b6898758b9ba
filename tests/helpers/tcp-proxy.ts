import net from "node:net";

export interface TcpProxy {
  /** The loopback port to connect to instead of the target. */
  port: number;
  /** Resets every relayed connection and stops listening, so new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay on loopback in front of `target`, for tests that take the database away from a
 * running server: cut, it looks to the client like a network partition or a database restart
 * (open connections reset, new ones refused) until it is restored.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const relayed = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    relayed.add(pair);
    const end = () => {
      relayed.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("the proxy has no address");
  const port = address.port;

  const cut = async () => {
    const closed = server.listening
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    for (const { client, upstream } of relayed) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    relayed.clear();
    await closed;
  };
  return {
    port,
    cut,
    restore: () => listen(port),
    close: cut,
  };
}
