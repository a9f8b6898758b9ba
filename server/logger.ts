import pino from "pino";

export type Logger = pino.Logger;

/**
 * A failed query's error (Drizzle's DrizzleQueryError) carries its parameters, which can be
 * emails, token hashes or session tokens, in `params`, its message and its stack. The logged
 * error keeps the query and drops the values.
 */
function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  const parameterLists: string[] = [];
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const params = (cause as { params?: unknown }).params;
    if (Array.isArray(params) && params.length > 0) parameterLists.push(`params: ${params}`);
  }
  delete serialized.params;
  for (const list of parameterLists) {
    serialized.message = serialized.message.replaceAll(list, "params: [redacted]");
    serialized.stack = serialized.stack.replaceAll(list, "params: [redacted]");
  }
  return serialized;
}

/**
 * Structured JSON logs. Anything that could carry a secret (cookies, tokens, authorization) is
 * redacted by path, so a careless log call cannot leak a session; `destination` is for tests
 * that read the log back.
 */
export function createLogger(
  level = process.env.LOG_LEVEL ?? "info",
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    serializers: { err: serializeError },
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        "res.headers['set-cookie']",
        "*.token",
        "*.password",
        "*.secret",
      ],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
