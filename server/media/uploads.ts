import { randomUUID } from "node:crypto";
import { UPLOADS, type UploadKind, uploadedObjectPath } from "../../common/uploads.ts";
import type { Config } from "../config.ts";
import type { AdminActor } from "../core/actor.ts";
import { forbidden, isServiceError, notFound } from "../core/errors.ts";
import type { ObjectStore } from "../storage/local.ts";
import { checkLocalUploadSignature, signLocalUploadUrl, UPLOAD_ID } from "../storage/upload-url.ts";

/** Long enough to pick a file on a slow connection; short enough that a leaked URL soon dies. */
const LOCAL_UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** A presigned bucket URL cannot be made single-use, so it lives only as long as one upload. */
const BUCKET_UPLOAD_URL_TTL_SECONDS = 5 * 60;

export interface UploadFlowOptions<Details> {
  kind: UploadKind;
  /**
   * Checks an upload's bytes and stores what is kept of them under `{kind}/{id}`, claiming the id
   * with `putIfAbsent`; undefined when the id was already taken. Bytes of a type the kind does not
   * accept throw a 415 ServiceError.
   */
  store(id: string, bytes: Uint8Array): Promise<Details | undefined>;
}

/**
 * An upload URL's expiry is real time, as a bucket's presigned URL's is (S3 checks those against
 * its own clock): it is written into the URL, so it must outlast a restart, and the services'
 * clock, which tests set to publish poems, has no say in it.
 */
const unixSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The admin's upload flow, the same for every kind (docs/product/admin.md, Uploads): an upload URL
 * for admins, then the browser's PUT of the file there. On local disk the URL is this server's,
 * signed and single-use, and the bytes are checked as they arrive; with S3 it is a presigned bucket
 * URL, and the upload waits under `uploads/{kind}/{id}` until its object is first read, when it is
 * checked and stored, or deleted.
 */
export function createUploadFlow<Details extends object, Uploader = AdminActor>(
  deps: { config: Config; objectStore: ObjectStore; secret: string },
  options: UploadFlowOptions<Details>,
) {
  const { config, objectStore, secret } = deps;
  const { kind, store } = options;
  const { maxBytes } = UPLOADS[kind];
  const storedKey = (id: string) => `${kind}/${id}`;
  const pendingUploadKey = (id: string) => `uploads/${kind}/${id}`;

  return {
    kind,
    maxBytes,

    /**
     * A URL the uploader's browser PUTs one file to, and the path to store in the content. The
     * uploader is the admin, but for images, which a reader may upload as their avatar.
     */
    async createUploadUrl(
      _uploader: Uploader,
      contentType?: string,
    ): Promise<{ uploadURL: string; objectPath: string }> {
      const id = randomUUID();
      const uploadURL = objectStore.presignUpload
        ? await objectStore.presignUpload(pendingUploadKey(id), {
            contentType,
            expiresInSeconds: BUCKET_UPLOAD_URL_TTL_SECONDS,
          })
        : signLocalUploadUrl(
            config.publicUrl,
            secret,
            kind,
            id,
            unixSeconds() + LOCAL_UPLOAD_URL_TTL_SECONDS,
          );
      return { uploadURL, objectPath: uploadedObjectPath(kind, id) };
    },

    /**
     * Receives a PUT to a local upload URL. The signed URL is the authority (no session): it
     * names the kind and the id, must not have expired, and works once.
     */
    async receiveUpload(
      id: string,
      link: { expires?: string; signature?: string },
      readBody: () => Promise<Uint8Array>,
    ): Promise<{ objectPath: string } & Details> {
      if (!UPLOAD_ID.test(id) || objectStore.presignUpload) throw notFound();
      const nowSeconds = unixSeconds();
      const check = checkLocalUploadSignature(
        secret,
        kind,
        id,
        link.expires,
        link.signature,
        nowSeconds,
      );
      if (check === "invalid") throw forbidden("Invalid upload signature");
      if (check === "expired") throw forbidden("Upload URL has expired");
      if (await objectStore.exists(storedKey(id))) {
        throw forbidden("Upload URL has already been used");
      }
      const stored = await store(id, await readBody());
      if (!stored) throw forbidden("Upload URL has already been used");
      return { objectPath: uploadedObjectPath(kind, id), ...stored };
    },

    /**
     * Checks and stores a direct-to-bucket upload, then deletes the upload. One that is too large
     * or of a type the kind does not accept is deleted without being stored.
     */
    async storePendingUpload(id: string): Promise<void> {
      if (!objectStore.presignUpload || !UPLOAD_ID.test(id)) return;
      const bytes = await objectStore.get(pendingUploadKey(id));
      if (!bytes) return;
      try {
        if (bytes.byteLength <= maxBytes) await store(id, bytes);
      } catch (error) {
        if (!isServiceError(error) || error.status !== 415) throw error;
      } finally {
        await objectStore.delete(pendingUploadKey(id));
      }
    },
  };
}

export type UploadFlow = ReturnType<typeof createUploadFlow>;
