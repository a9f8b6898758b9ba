import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Config } from "@react-router/dev/config";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { getMimeType } from "hono/utils/mime";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br and a .gz beside each text file of the browser build's assets, compressed once at
 * the highest levels; the server sends them as they are (server/app.ts, precompressed), so no
 * request pays for compression and Brotli saves a sixth of what a phone downloads. It runs once
 * the whole build is done, since React Router writes its manifest (manifest-*.js) after Vite
 * has written the scripts and stylesheets: whatever lands in assets is compressed.
 */
async function precompressClientAssets(assetsDir: string) {
  const files = (await fs.readdir(assetsDir)).filter((file) =>
    COMPRESSIBLE_CONTENT_TYPE_REGEX.test(getMimeType(file) ?? ""),
  );
  await Promise.all(
    files.map(async (file) => {
      const source = await fs.readFile(path.join(assetsDir, file));
      const [br, gz] = await Promise.all([
        brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip(source, { level: 9 }),
      ]);
      await fs.writeFile(path.join(assetsDir, `${file}.br`), br);
      await fs.writeFile(path.join(assetsDir, `${file}.gz`), gz);
    }),
  );
}

export default {
  ssr: true,
  buildEnd: ({ reactRouterConfig, viteConfig }) =>
    precompressClientAssets(
      path.join(reactRouterConfig.buildDirectory, "client", viteConfig.build.assetsDir),
    ),
} satisfies Config;
