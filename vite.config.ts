import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Modules more than one page uses that stay out of the `shared` file every reader page fetches:
 * each costs every page its bytes, so what the poem page (the heaviest) does not use, or loads only
 * when the reader asks for it, goes with the pages that use it (decision 030). Admin code (but the
 * admin-door notice every page shows), the contract (decision 031), the stanza's sharing and
 * its share image's drawing, the stanza actions and what their presses do, the whispers' author lines (the fediverse one
 * too), the menu's dialog, the journal's sync, ember sharing, guest voices' avatars, dates, book
 * slots, upload and name helpers, the whispers' text rules, the reading's stanza timings (the
 * read-along and the admin), and the icons only the account page, the journal, the whispers and
 * admin draw.
 */
const notShared = {
  app: [
    "admin(?!-access)",
    "api-contract",
    "stanza-image",
    "stanza-sharing",
    "stanza-interactions",
    "stanza-toggles",
    "whisper-author",
    "fediverse-whisper",
    "modal-dialog",
    "journal-sync",
    "ember-share-button",
    "guest-voice-avatar",
  ],
  common: [
    "schemas",
    "endpoints",
    "dates",
    "book-slots",
    "uploads",
    "display-name",
    "guest-submission-form",
    "text",
    "stanza-timings",
  ],
  icons: [
    "image-up",
    "audio-lines",
    "triangle-exclamation-point",
    "loader-circle",
    "circle-user-round",
    "arrow-down",
    "arrow-up",
    "check",
    "trash",
  ],
};
const sharedByReaderPages = new RegExp(
  [
    String.raw`app[\\/](lib|components)[\\/](?!${notShared.app.join("|")})`,
    String.raw`app[\\/]root\.tsx`,
    String.raw`common[\\/](?!${notShared.common.join("|")})`,
    String.raw`node_modules[\\/]lucide-react[\\/](?!dist[\\/]esm[\\/]icons[\\/](?:${notShared.icons.join("|")})\.)`,
  ].join("|"),
);

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      // Imported constants are written where they are used: a page's path (common/pages.ts)
      // costs a link only its own text, and the declarations no other code reads are left out.
      optimization: { inlineConst: { mode: "all", pass: 2 } },
      output: {
        // A first visit over HTTP/1.1 fetches six files at a time: React and React Router in one
        // file, the root route and the reader's code shared between pages in another, instead of
        // thirty small ones. What stays out of the shared file is listed above it.
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            {
              name: "shared",
              test: sharedByReaderPages,
              minShareCount: 2,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
