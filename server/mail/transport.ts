import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
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
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
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
