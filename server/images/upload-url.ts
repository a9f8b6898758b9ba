import { createHmac, timingSafeEqual } from "node:crypto";

/** Where this server receives uploads when images are kept on local disk. */
export const LOCAL_UPLOAD_PATH = "/uploads/images";

/** Upload ids are UUIDs: nothing else reaches the store, so no id can climb out of it. */
export const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const sign = (secret: string, id: string, expires: number) =>
  createHmac("sha256", secret).update(`image-upload:${id}:${expires}`).digest("base64url");

/**
 * This server's own upload URL for one id: signed with the session secret over the id and its
 * expiry, so it cannot be pointed at another id or used later. Its last path segment is the id,
 * which the client turns into /objects/images/{id} (SPEC.md §7).
 */
export function signLocalUploadUrl(
  publicUrl: URL,
  secret: string,
  id: string,
  expiresAtSeconds: number,
): string {
  const url = new URL(`${LOCAL_UPLOAD_PATH}/${id}`, publicUrl);
  url.searchParams.set("expires", String(expiresAtSeconds));
  url.searchParams.set("signature", sign(secret, id, expiresAtSeconds));
  return url.toString();
}

export type UploadSignatureCheck = "valid" | "invalid" | "expired";

export function checkLocalUploadSignature(
  secret: string,
  id: string,
  expires: string | undefined,
  signature: string | undefined,
  nowSeconds: number,
): UploadSignatureCheck {
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return "invalid";
  const expected = Buffer.from(sign(secret, id, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  return Number(expires) < nowSeconds ? "expired" : "valid";
}
