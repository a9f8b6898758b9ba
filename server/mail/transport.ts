import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** A stable Message-ID, so a receiving system can recognise the same email. */
  messageId?: string;
}

export interface SendOptions {
  /**
   * Runs once the server holds the whole message but before the final "." that makes it accept
   * it. Throwing here makes the server discard the message: the caller records "sent" in this
   * step, so a crash on either side of it can never lead to a second copy.
   */
  beforeCommit?: () => Promise<void>;
}

export interface Mailer {
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  close(): void;
}

/** The message's bytes, held back at the very end until `beforeCommit` resolves. */
function gatedMessage(bytes: Buffer, beforeCommit: () => Promise<void>): Readable {
  let isStarted = false;
  return new Readable({
    read() {
      if (isStarted) return;
      isStarted = true;
      this.push(bytes);
      beforeCommit().then(
        () => this.push(null),
        (error: Error) => this.destroy(error),
      );
    },
  });
}

/**
 * Mail over SMTP_URL (pooled connections), or, when it is unset, .eml files in DATA_DIR/outbox
 * and a log line, so development needs no mail server.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) {
    // nodemailer reads its SMTP options from the URL's query (pool, timeouts).
    const url = new URL(config.smtpUrl);
    for (const [key, value] of Object.entries({
      pool: "true",
      maxConnections: "3",
      connectionTimeout: "10000",
      greetingTimeout: "10000",
      socketTimeout: "20000",
    })) {
      if (!url.searchParams.has(key)) url.searchParams.set(key, value);
    }
    const transport = nodemailer.createTransport(url.toString());
    return {
      async send(message, options) {
        if (!options?.beforeCommit) {
          await transport.sendMail({ from: config.mailFrom, ...message });
          return;
        }
        const composed = new MailComposer({ from: config.mailFrom, ...message }).compile();
        const bytes = await composed.build();
        await transport.sendMail({
          envelope: composed.getEnvelope(),
          raw: gatedMessage(bytes, options.beforeCommit),
        });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message, options) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await options?.beforeCommit?.();
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      logger.info(
        { file, subject: message.subject },
        "mail written to the outbox (SMTP_URL is not set)",
      );
    },
    close: () => transport.close(),
  };
}
