import { useEffect, useRef, useState } from "react";
import { UPLOAD_ERROR_RESET_MS, UPLOAD_SUCCESS_RESET_MS } from "../../../common/constants.ts";
import { endpoints } from "../../../common/endpoints.ts";
import {
  fileTooLargeMessage,
  UPLOADS,
  type UploadKind,
  uploadedObjectPath,
} from "../../../common/uploads.ts";
import { ApiError, callApi } from "../../lib/api.ts";
import { notify, notifyError } from "../../lib/toast.ts";
import { AudioLines, Check, ImageUp, LoaderCircle, TriangleAlert } from "../icons.ts";
import { secondaryButton } from "./ui.tsx";

const STATE_RESET_MS = { success: UPLOAD_SUCCESS_RESET_MS, error: UPLOAD_ERROR_RESET_MS } as const;

/** What each kind's control shows and lets the file picker offer. */
const CONTROLS = {
  images: {
    typePrefix: "image/",
    accept: "image/jpeg,image/png,image/webp",
    label: "Upload image",
    icon: ImageUp,
    hint: "JPG, PNG or WebP, best 4:5 (e.g. 1080x1350)",
    done: "Image uploaded successfully",
  },
  audio: {
    typePrefix: "audio/",
    // Extensions too: some systems name no type for .opus or .m4a files.
    accept: "audio/mpeg,audio/mp4,audio/aac,audio/ogg,audio/wav,.mp3,.m4a,.aac,.ogg,.opus,.wav",
    label: "Upload audio",
    icon: AudioLines,
    hint: "MP3, M4A, Ogg/Opus or WAV, up to 25 MB",
    done: "Audio uploaded successfully",
  },
} satisfies Record<UploadKind, unknown>;

export interface UploadedFile {
  path: string;
  /** An image's size, as the server measured it. */
  width?: number;
  height?: number;
}

type UploadState = "idle" | "uploading" | "success" | "error";

/**
 * The admin's upload control for a cover image or a poem's reading (docs/product/admin.md): ask the
 * server for an upload URL, PUT the file there with its content type, and hand back
 * /objects/{kind}/{id}. The server checks the file's bytes; the checks here only save a wasted
 * upload.
 */
export function FileUpload({
  kind,
  onUploaded,
  uploadEndpoint,
  hint,
}: {
  kind: UploadKind;
  onUploaded: (file: UploadedFile) => void;
  /** Where the upload URL comes from: the admin's, unless a reader uploads their avatar. */
  uploadEndpoint?: typeof endpoints.createAvatarUploadUrl;
  hint?: string;
}) {
  const [state, setState] = useState<UploadState>("idle");
  const input = useRef<HTMLInputElement>(null);
  const control = { ...CONTROLS[kind], ...(hint && { hint }) };
  const { maxBytes, wrongTypeMessage } = UPLOADS[kind];
  const hintId = `${kind}-upload-hint`;

  useEffect(() => {
    if (state !== "success" && state !== "error") return;
    const timer = setTimeout(() => setState("idle"), STATE_RESET_MS[state]);
    return () => clearTimeout(timer);
  }, [state]);

  async function upload(file: File) {
    if (file.size > maxBytes) {
      window.alert(fileTooLargeMessage(maxBytes));
      return;
    }
    // A file whose type the browser cannot name goes on: its bytes decide on the server.
    if (file.type !== "" && !file.type.startsWith(control.typePrefix)) {
      window.alert(wrongTypeMessage);
      return;
    }
    setState("uploading");
    let uploadURL: string;
    try {
      const uploadUrl =
        uploadEndpoint ??
        (kind === "audio" ? endpoints.createAudioUploadUrl : endpoints.createUploadUrl);
      ({ uploadURL } = await callApi(uploadUrl, { body: {} }));
    } catch {
      setState("error");
      notifyError("Upload Failed", "Failed to get upload URL");
      return;
    }
    try {
      const response = await fetch(uploadURL, {
        method: "PUT",
        body: file,
        headers: { "Content-Type": file.type || "application/octet-stream" },
        credentials: "include",
      });
      if (!response.ok) {
        throw new ApiError(response.status, await response.text(), response.statusText);
      }
      const stored = (await response.json().catch(() => ({}))) as {
        width?: number;
        height?: number;
      };
      // The stored path is the upload URL's last segment, without its query
      // (docs/product/admin.md, Uploads).
      const id = new URL(uploadURL, window.location.href).pathname.split("/").pop() ?? "";
      onUploaded({
        path: uploadedObjectPath(kind, id),
        width: stored.width,
        height: stored.height,
      });
      setState("success");
      notify("Upload Complete", control.done);
    } catch (error) {
      setState("error");
      const message =
        error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error);
      window.alert(`Upload failed: ${message}. Please try again.`);
    }
  }

  const label = {
    idle: control.label,
    uploading: "Uploading...",
    success: "Uploaded",
    error: "Upload failed",
  }[state];
  const Icon = {
    idle: control.icon,
    uploading: LoaderCircle,
    success: Check,
    error: TriangleAlert,
  }[state];

  return (
    <div>
      <input
        ref={input}
        type="file"
        accept={control.accept}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
      />
      <button
        type="button"
        className={secondaryButton}
        disabled={state === "uploading"}
        onClick={() => input.current?.click()}
        aria-describedby={hintId}
      >
        <Icon aria-hidden className={`size-4 ${state === "uploading" ? "animate-spin" : ""}`} />
        {label}
      </button>
      <p id={hintId} className="mt-1 text-sm text-stone-600">
        {control.hint}
      </p>
      <span className="sr-only" aria-live="polite">
        {state === "idle" ? "" : label}
      </span>
    </div>
  );
}
