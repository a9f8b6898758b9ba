import pino from "pino";

export type Logger = pino.Logger;

/**
 * Structured JSON logs. Anything that could carry a secret (cookies, tokens, authorization) is
 * redacted by path, so a careless log call cannot leak a session.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    level,
    base: undefined,
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
  });
}
