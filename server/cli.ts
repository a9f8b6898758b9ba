import path from "node:path";
import { commands, helpText, UsageError } from "./cli/commands.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { sendControlRequest } from "./control/socket.ts";
import { readLockHolder } from "./db/data-dir-lock.ts";

/**
 * The operator CLI: `npm run cli -- <command>`. Prints the command's answer on stdout; misuse
 * exits 2 and failures exit 1, each with one clear line on stderr.
 */
const [name, ...typedArgs] = process.argv.slice(2);

function fail(message: string, code: 1 | 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

if (!name || name === "--help" || name === "-h" || name === "help") {
  process.stdout.write(`${helpText()}\n`);
  process.exit(name ? 0 : 2);
}
const command = commands[name];
if (!command) fail(`unknown command: ${name}\n\n${helpText()}`, 2);
// A running server may be the one to open the file: it must not depend on the operator's cwd.
// The file is the first argument; flags after it stay as typed.
const args =
  command.takesFile && typedArgs[0] && !typedArgs[0].startsWith("--")
    ? [path.resolve(typedArgs[0]), ...typedArgs.slice(1)]
    : typedArgs;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message, 1);
  throw error;
}

const serverPid = config.databaseUrl ? undefined : readLockHolder(config.dataDir);

// A dry run beside no server reads the file alone: opening the embedded database for it would
// cost seconds and hundreds of MB (docs/decisions/061-a-dry-run-reads-the-file-alone.md).
const dryRunFile = args[0];
if (
  name === "import" &&
  args.includes("--dry-run") &&
  !config.databaseUrl &&
  serverPid === undefined &&
  dryRunFile &&
  !dryRunFile.startsWith("--") &&
  !dryRunFile.endsWith(".json.gz")
) {
  const [{ dryRunImport }, { importFlags, isContentExport }] = await Promise.all([
    import("./cli/import-dry-run.ts"),
    import("./cli/commands.ts"),
  ]);
  try {
    const { source } = importFlags(args.slice(1), command.usage);
    if (source !== undefined || !(await isContentExport(dryRunFile))) {
      process.stdout.write(`${await dryRunImport(dryRunFile, source, new Date())}\n`);
      process.exit(0);
    }
  } catch (error) {
    fail((error as Error).message, error instanceof UsageError ? 2 : 1);
  }
}

if (serverPid !== undefined) {
  const response = await sendControlRequest(config.dataDir, { command: name, args }).catch(
    (error: Error) =>
      fail(
        `the server (pid ${serverPid}) holds the database but did not answer: ${error.message}`,
        1,
      ),
  );
  if (!response.ok) fail(response.error, response.usage ? 2 : 1);
  process.stdout.write(`${response.output}\n`);
} else {
  // The database, mail and services are loaded only here: a command handed to the running
  // server (most of them, a login link above all) starts in a tenth of the time without them.
  const [{ openDatabaseFor }, { createLogger }, { composeProcess }] = await Promise.all([
    import("./db/open.ts"),
    import("./logger.ts"),
    import("./compose.ts"),
  ]);
  // Only errors reach the operator's terminal: the command's answer is the output.
  const logger = createLogger(process.env.LOG_LEVEL ?? "warn");
  const handle = await openDatabaseFor(config).catch((error: Error) =>
    fail(`Cannot open the database: ${error.message}`, 1),
  );
  try {
    if (name !== "migrate") await handle.migrate();
    const { services, close } = await composeProcess({ config, logger, handle });
    try {
      process.stdout.write(`${await command.run({ config, handle, logger, services }, args)}\n`);
    } finally {
      close();
    }
  } catch (error) {
    await handle.close();
    fail((error as Error).message, error instanceof UsageError ? 2 : 1);
  }
  await handle.close();
}
