import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The bench's ceiling: a raw node:http server in a process of its own, as the app's servers are
 * (in the bench's process it would share a core with the load generator). Answers every request
 * with the bytes of the file it is given, with their length, and prints its URL once listening.
 */
const body = fs.readFileSync(process.argv[2] ?? "");
const headers = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Length": String(body.length),
};
const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});
