import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("poetry", "routes/poetry.tsx"),
  route("poetry/:slug", "routes/poem.tsx"),
  route("themes/:slug", "routes/theme.tsx"),
  route("share/poem/:slug", "routes/share-poem.tsx"),
  route("ember", "routes/ember.tsx"),
  route("ember/archive", "routes/ember-archive.tsx"),
  route("books", "routes/books.tsx"),
  route("book/:slug/preview", "routes/book-preview.tsx"),
  route("journal", "routes/journal.tsx"),
  route("guest-voices", "routes/guest-voices.tsx"),
  route("guest-voices/:slug", "routes/guest-voice.tsx"),
  route("contribute", "routes/contribute.tsx"),
  route("search", "routes/search.tsx"),
  route("admin", "routes/admin-layout.tsx", [
    index("routes/admin.tsx"),
    route("digest", "routes/admin-digest.tsx"),
    route("submissions", "routes/admin-submissions.tsx"),
    route("guest-voices", "routes/admin-guest-voices.tsx"),
  ]),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("subscribe/invalid", "routes/subscribe-invalid.tsx"),
  route("login", "routes/login.tsx"),
  route("login/verify", "routes/login-verify.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
