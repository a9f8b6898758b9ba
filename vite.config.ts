import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // A first visit over HTTP/1.1 fetches six files at a time: React and React Router in one
        // file, and the reader's code shared between pages in another, instead of thirty small ones.
        // Admin code stays in the admin routes' own files, and the contract (common/endpoints.ts
        // with zod) in its own, fetched with a page's first call (decision 031).
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            {
              name: "shared",
              test: /app[\\/](lib|components)[\\/](?!admin(?!-access)|api-contract|stanza-image|stanza-interactions|ember-share-button|guest-voice-avatar|modal-dialog|whisper-author|journal-sync)|app[\\/]root\.tsx|common[\\/](?!schemas|endpoints|dates|book-slots|uploads|display-name|guest-submission-form)|node_modules[\\/]lucide-react[\\/](?!dist[\\/]esm[\\/]icons[\\/](?:image-up|audio-lines|triangle-exclamation-point|loader-circle|circle-user-round)\.)/,
              minShareCount: 2,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
