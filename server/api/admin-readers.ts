import { Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const readerId = z.object({
  userId: z
    .string()
    .check(z.regex(/^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i, "Reader not found")),
});

/** The poet blocks and unblocks readers (decision 041), on the admin router. */
export function adminReaderRoutes(services: Services) {
  const { readerAccounts } = services;
  return new Hono<AdminEnv>()
    .post("/readers/:userId/block", async (c) => {
      const { userId } = parseInput(readerId, c.req.param());
      await readJsonBody(c, endpoints.blockReader.body);
      await readerAccounts.blockReader(c.var.admin, userId);
      return answer(c, endpoints.blockReader, { message: "Reader blocked" });
    })
    .post("/readers/:userId/unblock", async (c) => {
      const { userId } = parseInput(readerId, c.req.param());
      await readJsonBody(c, endpoints.unblockReader.body);
      await readerAccounts.unblockReader(c.var.admin, userId);
      return answer(c, endpoints.unblockReader, { message: "Reader unblocked" });
    });
}
