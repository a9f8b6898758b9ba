import { createHmac, timingSafeEqual } from "node:crypto";
import * as otherRoutes from "../../common/other-routes.ts";
import { pathTo } from "../../common/path-builder.ts";
import type { UploadKind } from "../../common/uploads.ts";

/** Where this server receives uploads of a kind when objects are kept on local disk. */
const LOCAL_UPLOAD_PATHS = {
  images: otherRoutes.uploadImage.path,
  audio: otherRoutes.uploadAudio.path,
} as const satisfies Record<UploadKind, string>;

/** Upload ids are UUIDs: nothing else reaches the store, so no id can climb out of it. */
export const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// The kind is signed too, so a URL for a 25 MB recording cannot be replayed as a cover upload.
const sign = (secret: string, kind: UploadKind, id: string, expires: number) =>
  createHmac("sha256", secret).update(`${kind}-upload:${id}:${expires}`).digest("base64url");

/**
 * This server's own upload URL for one id of a kind: signed with the session secret over the
 * kind, the id and its expiry, so it cannot be pointed at another id or used later. Its last path
 * segment is the id, which the client turns into /objects/{kind}/{id}.
 */
export function signLocalUploadUrl(
  publicUrl: URL,
  secret: string,
  kind: UploadKind,
  id: string,
  expiresAtSeconds: number,
): string {
  const url = new URL(pathTo(LOCAL_UPLOAD_PATHS[kind], { id }), publicUrl);
  url.searchParams.set("expires", String(expiresAtSeconds));
  url.searchParams.set("signature", sign(secret, kind, id, expiresAtSeconds));
  return url.toString();
}

export type UploadSignatureCheck = "valid" | "invalid" | "expired";

export function checkLocalUploadSignature(
  secret: string,
  kind: UploadKind,
  id: string,
  expires: string | undefined,
  signature: string | undefined,
  nowSeconds: number,
): UploadSignatureCheck {
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return "invalid";
  const expected = Buffer.from(sign(secret, kind, id, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  return Number(expires) < nowSeconds ? "expired" : "valid";
}
