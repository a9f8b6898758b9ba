import { NONCE, secureHeaders } from "hono/secure-headers";
import type { Config } from "../config.ts";

/**
 * Security headers on every response. Scripts run only with this request's nonce (React Router's
 * inline hydration scripts carry it); nothing may frame the site.
 */
export function securityHeaders(config: Config) {
  const isHttps = config.publicUrl.protocol === "https:";
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      // Inline style attributes (progress bars, React's style props) are harmless without script.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:", "https:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
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
