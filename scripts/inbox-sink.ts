import http from "node:http";

/**
 * A fediverse inbox sink for `npm run bench:federation`, in its own process so its work is not
 * the site's: every POST to any path is read whole and answered 202; `GET /counts` answers how
 * many POSTs each path got. It prints its port on its first line.
 */
const counts = new Map<string, number>();
const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/counts") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(Object.fromEntries(counts)));
    return;
  }
  request.resume();
  request.on("end", () => {
    const path = request.url ?? "/";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    response.writeHead(202).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
