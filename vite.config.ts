import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br and a .gz beside each script and stylesheet of the browser build, compressed once
 * at the highest levels; the server sends them as they are (server/app.ts, precompressed), so no
 * request pays for compression and Brotli saves a sixth of what a phone downloads.
 */
function precompressClientAssets(): Plugin {
  return {
    name: "ember-verse:precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "build/client";
      const files = Object.keys(bundle).filter((file) => /\.(js|css)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.readFile(path.join(dir, file));
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzip(source, { level: 9 }),
          ]);
          await fs.writeFile(path.join(dir, `${file}.br`), br);
          await fs.writeFile(path.join(dir, `${file}.gz`), gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompressClientAssets()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // A first visit over HTTP/1.1 fetches six files at a time: React and React Router in one
        // file, and the reader's code shared between pages in another, instead of thirty small ones.
        // Admin code stays in the admin routes' own files.
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            {
              name: "shared",
              test: /app[\\/](lib|components)[\\/](?!admin)|common[\\/](?!schemas)|node_modules[\\/]lucide-react[\\/]/,
              minShareCount: 2,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
