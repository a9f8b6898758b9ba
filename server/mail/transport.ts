import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { removeOutboxMailTo } from "./outbox.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** A stable Message-ID, so a receiving system can recognise the same email. */
  messageId?: string;
  /** The sender's name as the site is titled now (used unless the operator set MAIL_FROM). */
  fromName?: string;
}

/**
 * One connection for a stream of bulk messages, each committed by the caller at the last moment.
 * `commit` runs once the server has accepted the recipient and holds the whole message, but
 * before the final "." that makes it take the message. If `commit` throws, the server discards
 * the message. The digest records "sent" in `commit`, so a crash on either side of it can never
 * lead to a second copy.
 */
export interface MailChannel {
  send(message: MailMessage, commit: () => Promise<void>): Promise<void>;
  close(): void;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  openChannel(): MailChannel;
  /**
   * Removes the mail to `address` that the site still holds: the development outbox's files.
   * Mail handed to an SMTP server has left the site.
   */
  removeMailTo(address: string): Promise<void>;
  close(): void;
}

/** SMTP options every connection gets unless SMTP_URL's query says otherwise. */
const SMTP_DEFAULTS = {
  pool: "true",
  maxConnections: "3",
  connectionTimeout: "10000",
  greetingTimeout: "10000",
  socketTimeout: "20000",
};

/** The message's bytes, the end held back until `commit` resolves. */
function gatedMessage(bytes: Buffer, commit: () => Promise<void>): Readable {
  let isStarted = false;
  return new Readable({
    read() {
      if (isStarted) return;
      isStarted = true;
      this.push(bytes);
      commit().then(
        () => this.push(null),
        (error: Error) => this.destroy(error),
      );
    },
  });
}

/** The From header: MAIL_FROM as the operator wrote it, or the site's current name. */
function envelopeOf(config: Config, { fromName, ...message }: MailMessage) {
  const from =
    fromName && config.defaultMailAddress
      ? { name: fromName, address: config.defaultMailAddress }
      : config.mailFrom;
  return { from, ...message };
}

async function compose(config: Config, message: MailMessage) {
  const composed = new MailComposer(envelopeOf(config, message)).compile();
  return { envelope: composed.getEnvelope(), bytes: await composed.build() };
}

/**
 * A channel on a plain SMTP connection (not the pool): SMTPConnection reads the message only
 * after the server accepted the envelope and DATA, so `commit` runs in the data phase itself.
 */
function smtpChannel(
  options: SMTPConnection.Options,
  credentials: SMTPConnection.Credentials | undefined,
  config: Config,
): MailChannel {
  let open: Promise<SMTPConnection> | undefined;
  const connect = async () => {
    const connection = new SMTPConnection(options);
    // Failures reach the callbacks below; the event only needs a listener.
    connection.on("error", () => {});
    await new Promise<void>((resolve, reject) =>
      connection.connect((error?: Error) => (error ? reject(error) : resolve())),
    );
    if (credentials) {
      await new Promise<void>((resolve, reject) =>
        connection.login({ credentials }, (error) => (error ? reject(error) : resolve())),
      );
    }
    return connection;
  };
  const drop = () => {
    const closing = open;
    open = undefined;
    void closing?.then((connection) => connection.close()).catch(() => {});
  };
  return {
    async send(message, commit) {
      const { envelope, bytes } = await compose(config, message);
      open ??= connect();
      try {
        const connection = await open;
        await new Promise<void>((resolve, reject) =>
          connection.send(envelope, gatedMessage(bytes, commit), (error) =>
            error ? reject(error) : resolve(),
          ),
        );
      } catch (error) {
        // A refused or broken exchange leaves the session in doubt: start the next one afresh.
        drop();
        throw error;
      }
    },
    close: drop,
  };
}

/**
 * Mail over SMTP_URL (pooled connections), or, when it is unset, .eml files in DATA_DIR/outbox
 * and a log line, so development needs no mail server.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) {
    // nodemailer reads its SMTP options from the URL's query (pool, timeouts).
    const url = new URL(config.smtpUrl);
    for (const [key, value] of Object.entries(SMTP_DEFAULTS)) {
      if (!url.searchParams.has(key)) url.searchParams.set(key, value);
    }
    const transport = nodemailer.createTransport(url.toString());
    const connectionOptions = parseConnectionUrl(url.toString());
    const credentials = url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined;
    return {
      async send(message) {
        await transport.sendMail(envelopeOf(config, message));
      },
      openChannel: () => smtpChannel(connectionOptions, credentials, config),
      removeMailTo: async () => {},
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  const writeToOutbox = async (bytes: Buffer, subject: string) => {
    await fs.mkdir(outbox, { recursive: true });
    const file = path.join(
      outbox,
      `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
    );
    await fs.writeFile(file, bytes);
    logger.info({ file, subject }, "mail written to the outbox (SMTP_URL is not set)");
  };
  return {
    async send(message) {
      await writeToOutbox((await compose(config, message)).bytes, message.subject);
    },
    openChannel: () => ({
      async send(message, commit) {
        const { bytes } = await compose(config, message);
        await commit();
        await writeToOutbox(bytes, message.subject);
      },
      close: () => {},
    }),
    async removeMailTo(address) {
      await removeOutboxMailTo(outbox, address);
    },
    close: () => {},
  };
}
