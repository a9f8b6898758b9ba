import { randomFillSync } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { type ContentSecurityPolicyOptionHandler, secureHeaders } from "hono/secure-headers";
import type { Config } from "../config.ts";
import { s3UploadOrigin } from "../storage/object-store.ts";

const NONCE_BYTES = 16;
/**
 * Random bytes for the next 256 nonces. Hono's NONCE asks the system for 16 bytes per response,
 * a system call that was a tenth of an API call's time here; drawing them from one larger fill,
 * as node's own randomUUID does, gives nonces just as unpredictable for a 256th of the calls.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/** This response's script nonce, kept where React Router's render reads it (Hono's key). */
const scriptNonce: ContentSecurityPolicyOptionHandler = (c) => {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  c.set("secureHeadersNonce", nonce);
  return `'nonce-${nonce}'`;
};

/**
 * Security headers on every response. Scripts run only with this request's nonce (React Router's
 * inline hydration scripts carry it); nothing may frame the site.
 */
export function securityHeaders(config: Config) {
  const isHttps = config.publicUrl.protocol === "https:";
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [scriptNonce, "'strict-dynamic'"],
      // Inline style attributes (progress bars, React's style props) are harmless without script.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:", "https:"],
      fontSrc: ["'self'"],
      // A poem's reading: uploaded (/objects/audio/) or any https: URL, exactly what the poem
      // form accepts, so an accepted audioUrl always plays (decision 018).
      mediaSrc: ["'self'", "https:"],
      // Admin uploads go straight to the bucket when images are kept in S3.
      connectSrc: ["'self'", ...(config.s3 ? [s3UploadOrigin(config.s3)] : [])],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
    },
    strictTransportSecurity: isHttps ? "max-age=31536000; includeSubDomains" : false,
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: "same-site",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}

/**
 * The built scripts and stylesheets carry only the headers that mean something for them: a
 * page's policies (CSP, framing, referrer) do not apply to a script, and on a phone's first visit
 * a kilobyte of headers on each file is a kilobyte more to download before the page can run. Nor
 * does a file that never changes need its request's id: the request log keeps it.
 */
export function assetHeaders(config: Config) {
  const isHttps = config.publicUrl.protocol === "https:";
  return createMiddleware(async (c, next) => {
    await next();
    c.header("X-Request-Id", undefined);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cross-Origin-Resource-Policy", "same-site");
    if (isHttps) c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  });
}
