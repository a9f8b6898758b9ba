import { eq } from "drizzle-orm";
import { dayInZone } from "../../common/dates.ts";
import { GUEST_VOICES } from "../../common/guest-voices.ts";
import { books, users, whispers } from "../../server/db/schema.ts";
import { createEmber, createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import type { TestApp } from "../helpers/test-app.ts";

/** Signed-in sessions of the roles the security suites act as. */
export interface Sessions {
  /** A reader (USER) who owns the seeded whisper and journal entry. */
  user: string;
  /** Another reader (USER), who must not be able to touch the first one's things. */
  otherUser: string;
  admin: string;
}

/** Names of the seeded content, for filling path parameters. */
export const WORLD = {
  poemSlug: "river",
  tagName: "Belonging",
  themeSlug: "belonging",
  bookSlug: "first-light",
  userEmail: "ada@example.com",
  otherUserEmail: "ben@example.com",
  adminEmail: "poet@example.com",
} as const;

/**
 * A small site with one of everything (poem, tag, ember, book, whisper) and
 * three signed-in people, so every route has something real to act on.
 */
export async function seedWorld(t: TestApp) {
  const poem = await createPoem(t.db, {
    slug: WORLD.poemSlug,
    title: "River",
    stanzas: ["one / two", "three / four", "five / six"],
    tagNames: [WORLD.tagName],
  });
  await createEmber(t.db, {
    day: dayInZone("UTC"),
    text: "A small flame",
    tagNames: [WORLD.tagName],
  });
  await t.db.insert(books).values({
    title: "First Light",
    slug: WORLD.bookSlug,
    blurb: "A first book",
    coverUrl: "/objects/images/cover",
    buyUrl: "https://example.com/buy",
    pages: [{ title: "One", content: "A page" }],
    order: 1,
  });
  const sessions: Sessions = {
    user: await signIn(t, WORLD.userEmail),
    otherUser: await signIn(t, WORLD.otherUserEmail),
    admin: await signIn(t, WORLD.adminEmail, { admin: true }),
  };
  const whisperId = await createWhisper(t, poem.id);
  return { poem, sessions, whisperId };
}

export type World = Awaited<ReturnType<typeof seedWorld>>;

/** A fresh whisper by the reader `user`, for routes that use one up. */
export async function createWhisper(t: TestApp, poemId: number): Promise<number> {
  const [author] = await t.db.select().from(users).where(eq(users.email, WORLD.userEmail));
  if (!author) throw new Error("seed the world first");
  const [whisper] = await t.db
    .insert(whispers)
    .values({ poemId, stanzaIndex: "0", userId: author.id, text: "a quiet thought" })
    .returning();
  if (!whisper) throw new Error("whisper insert failed");
  return whisper.id;
}

const NO_SUCH_ID = 999_999;

/**
 * A value for a path parameter of `path`: the seeded thing the route is about, so the handler
 * gets past "not found" to the checks under test. Admin ids name nothing; other unknown
 * parameters get "1".
 */
export function sampleParameter(path: string, name: string, world: World): string {
  if (name === "slug") {
    if (path.includes("/books/") || path.includes("/book/")) return WORLD.bookSlug;
    if (path.includes("/themes/")) return WORLD.themeSlug;
    if (path.includes("/guest-voices/")) return GUEST_VOICES[0]?.slug ?? "none";
    return WORLD.poemSlug;
  }
  if (name === "stanzaIndex") return "0";
  if (name === "file") return "0.png";
  if (name === "providerId") return "oidc";
  // An id that names nothing: an admin's PUT or DELETE in a sweep over every route must not
  // remove the content the routes after it act on.
  if (name === "id" && path.startsWith("/api/admin/")) return String(NO_SUCH_ID);
  if (name === "id" && path.includes("/whispers/")) return String(world.whisperId);
  return "1";
}
