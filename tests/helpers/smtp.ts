import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string[];
  parsed: ParsedMail;
}

/** An SMTP reply code the server gives a recipient instead of accepting it (450 later, 550 never). */
export type Refusal = 421 | 450 | 451 | 550 | 553;

/**
 * A real SMTP server on loopback that keeps every message it accepts, for tests to read back.
 * `refuse` (changeable while it runs) turns recipients away with an SMTP error.
 */
export async function startSmtpCapture(
  options: {
    refuse?: (to: string) => Refusal | undefined;
    /** How long the server takes over each accepted message, to make a long run last. */
    delayMs?: number;
  } = {},
) {
  const messages: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const state = { refuse: options.refuse };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = state.refuse?.(address.address);
      if (!code) return callback();
      const error = new Error(code >= 500 ? "Mailbox unavailable" : "Try again later");
      callback(Object.assign(error, { responseCode: code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
          messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  // A sender killed mid-message resets its connection: expected in crash tests, not a failure.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves once `count` messages have been accepted in all. */
    async waitForCount(count: number, timeoutMs = 60_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${messages.length} of ${count} mails`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    setRefusal(refuse: ((to: string) => Refusal | undefined) | undefined) {
      state.refuse = refuse;
    },
    /** Resolves with the first message to `to` that arrives (or has arrived) after `since`. */
    async waitFor(to: string, since = 0, timeoutMs = 10_000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.slice(since).find((message) => message.to.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpCapture = Awaited<ReturnType<typeof startSmtpCapture>>;

/**
 * Subscribes `email` to the digest through the site's API, as the footer form does, and answers
 * the confirmation mail that `smtp` received for it.
 */
export async function subscribeAndReadConfirmation(
  smtp: SmtpCapture,
  siteUrl: string,
  email: string,
): Promise<CapturedMail> {
  const since = smtp.messages.length;
  const response = await fetch(`${siteUrl}/api/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: siteUrl },
    body: JSON.stringify({ email }),
  });
  if (response.status !== 200) throw new Error(`subscribe answered ${response.status}`);
  return smtp.waitFor(email, since);
}
