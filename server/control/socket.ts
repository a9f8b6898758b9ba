import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { type CommandContext, commands, UsageError } from "../cli/commands.ts";

/**
 * While the server holds the embedded database, no other process may open it; the CLI hands its
 * commands to the server over this owner-only socket instead (README.md, Scripts).
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, "control.sock");
}

export interface ControlRequest {
  command: string;
  args: string[];
}

export type ControlResponse =
  | { ok: true; output: string }
  | { ok: false; usage: boolean; error: string };

async function answer(context: CommandContext, request: ControlRequest): Promise<ControlResponse> {
  const command = commands[request.command];
  if (!command) return { ok: false, usage: true, error: `unknown command: ${request.command}` };
  try {
    return { ok: true, output: await command.run(context, request.args) };
  } catch (error) {
    const isUsage = error instanceof UsageError;
    if (!isUsage)
      context.logger.error({ err: error, command: request.command }, "control command failed");
    return { ok: false, usage: isUsage, error: (error as Error).message };
  }
}

export async function startControlSocket(context: CommandContext) {
  const socketPath = controlSocketPath(context.config.dataDir);
  // A socket file left by a killed server: we hold the data directory lock, so it is stale.
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", async (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline === -1) return;
      let response: ControlResponse;
      try {
        response = await answer(context, JSON.parse(buffer.slice(0, newline)) as ControlRequest);
      } catch {
        response = { ok: false, usage: true, error: "malformed control request" };
      }
      socket.end(`${JSON.stringify(response)}\n`);
    });
    socket.on("error", () => {});
  });
  const previousMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, resolve);
    });
  } finally {
    process.umask(previousMask);
  }
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** The CLI side: sends one command to the running server and returns its answer. */
export function sendControlRequest(
  dataDir: string,
  request: ControlRequest,
): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(controlSocketPath(dataDir));
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk) => {
      buffer += chunk;
    });
    socket.on("end", () => {
      try {
        resolve(JSON.parse(buffer) as ControlResponse);
      } catch {
        reject(new Error("the running server sent no answer"));
      }
    });
    socket.on("error", reject);
  });
}
