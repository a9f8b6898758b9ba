import { index, type RouteConfig, route } from "@react-router/dev/routes";
import * as pages from "../common/pages.ts";

/** A page's declared path as the route config takes it: relative to its parent's. */
const at = (path: string, parent = "") => path.slice(parent.length + 1);

export default [
  index("routes/home.tsx"),
  route(at(pages.poetry), "routes/poetry.tsx"),
  route(at(pages.poem), "routes/poem.tsx"),
  route(at(pages.theme), "routes/theme.tsx"),
  route(at(pages.sharePoem), "routes/share-poem.tsx"),
  route(at(pages.ember), "routes/ember.tsx"),
  route(at(pages.emberArchive), "routes/ember-archive.tsx"),
  route(at(pages.books), "routes/books.tsx"),
  route(at(pages.bookPreview), "routes/book-preview.tsx"),
  route(at(pages.journal), "routes/journal.tsx"),
  route(at(pages.account), "routes/account.tsx"),
  route(at(pages.guestVoices), "routes/guest-voices.tsx"),
  route(at(pages.guestVoice), "routes/guest-voice.tsx"),
  route(at(pages.contribute), "routes/contribute.tsx"),
  route(at(pages.search), "routes/search.tsx"),
  route(at(pages.about), "routes/about.tsx"),
  route(at(pages.privacy), "routes/privacy.tsx"),
  route(at(pages.admin), "routes/admin-layout.tsx", [
    index("routes/admin.tsx"),
    route(at(pages.adminDigest, pages.admin), "routes/admin-digest.tsx"),
    route(at(pages.adminSubmissions, pages.admin), "routes/admin-submissions.tsx"),
    route(at(pages.adminSettings, pages.admin), "routes/admin-settings.tsx"),
    route(at(pages.adminGuestVoices, pages.admin), "routes/admin-guest-voices.tsx"),
    route(at(pages.adminImport, pages.admin), "routes/admin-import.tsx"),
    route(at(pages.adminChapbooks, pages.admin), "routes/admin-chapbooks.tsx"),
    route(at(pages.adminFediverse, pages.admin), "routes/admin-fediverse.tsx"),
    route(at(pages.adminInsights, pages.admin), "routes/admin-insights.tsx"),
    route(at(pages.adminPoemInsights, pages.admin), "routes/admin-poem-insights.tsx"),
  ]),
  route(at(pages.unsubscribe), "routes/unsubscribe.tsx"),
  route(at(pages.subscribeConfirmed), "routes/subscribe-confirmed.tsx"),
  route(at(pages.subscribeInvalid), "routes/subscribe-invalid.tsx"),
  route(at(pages.login), "routes/login.tsx"),
  route(at(pages.loginVerify), "routes/login-verify.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
