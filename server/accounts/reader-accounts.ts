import type { ServiceDeps } from "../core/deps.ts";
import type { InteractionService } from "../interactions/interactions.ts";
import type { Mailer } from "../mail/transport.ts";
import { accountDetails } from "./account-details.ts";
import { accountExport } from "./account-export.ts";
import { accountLeaving } from "./account-leaving.ts";
import type { AccountService } from "./accounts.ts";
import { readerBlocks } from "./reader-blocks.ts";

export type ReaderAccountDeps = ServiceDeps & {
  accounts: AccountService;
  interactions: InteractionService;
  mailer: Pick<Mailer, "removeMailTo">;
};

/**
 * What a signed-in reader does with their own account on /account (their name and avatar, their
 * data, signing out everywhere, leaving), and the poet's block on a reader (decision 041).
 * Sessions and what this instance remembers of them belong to the accounts service; this one
 * tells it, and the interactions' memory, when a reader changes or goes.
 */
export function createReaderAccountService(deps: ReaderAccountDeps) {
  return {
    ...accountDetails(deps),
    ...accountExport(deps),
    ...accountLeaving(deps),
    ...readerBlocks(deps),
  };
}

export type ReaderAccountService = ReturnType<typeof createReaderAccountService>;
