/**
 * Every page of the site by name, its path as React Router matches it (`:name` is a parameter),
 * read as a whole with `import * as pages` (a bundle then keeps only the pages it names).
 * app/routes.ts registers the pages from here and common/paths.ts builds every link to them, so a
 * page's path is written once (docs/decisions/078-every-path-written-once.md).
 */
export const home = "/";
export const poetry = "/poetry";
export const poem = "/poetry/:slug";
export const theme = "/themes/:slug";
export const sharePoem = "/share/poem/:slug";
export const ember = "/ember";
export const emberArchive = "/ember/archive";
export const books = "/books";
export const bookPreview = "/book/:slug/preview";
export const journal = "/journal";
export const account = "/account";
export const guestVoices = "/guest-voices";
export const guestVoice = "/guest-voices/:slug";
export const contribute = "/contribute";
export const search = "/search";
export const about = "/about";
export const privacy = "/privacy";
export const admin = "/admin";
export const adminDigest = "/admin/digest";
export const adminSubmissions = "/admin/submissions";
export const adminSettings = "/admin/settings";
export const adminGuestVoices = "/admin/guest-voices";
export const adminImport = "/admin/import";
export const adminChapbooks = "/admin/chapbooks";
export const adminFediverse = "/admin/fediverse";
export const adminInsights = "/admin/insights";
export const adminPoemInsights = "/admin/insights/poems/:slug";
export const unsubscribe = "/unsubscribe";
export const subscribeConfirmed = "/subscribe/confirmed";
export const subscribeInvalid = "/subscribe/invalid";
export const login = "/login";
export const loginVerify = "/login/verify";
