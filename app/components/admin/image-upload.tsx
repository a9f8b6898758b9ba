import { Check, ImageUp, LoaderCircle, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import { ApiError, callApi } from "../../lib/api.ts";
import { notify, notifyError } from "../../lib/toast.ts";
import { secondaryButton } from "./ui.tsx";

/** SPEC.md §5: the client refuses files over 5 MB and anything that is not an image. */
const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const STATE_RESET_MS = { success: 2_000, error: 3_000 } as const;

export interface UploadedImage {
  path: string;
  width?: number;
  height?: number;
}

type UploadState = "idle" | "uploading" | "success" | "error";

/**
 * The cover upload control (SPEC.md §2, §7): ask the server for an upload URL, PUT the file there
 * with its content type, and hand back /objects/images/{id}.
 */
export function ImageUpload({ onUploaded }: { onUploaded: (image: UploadedImage) => void }) {
  const [state, setState] = useState<UploadState>("idle");
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (state !== "success" && state !== "error") return;
    const timer = setTimeout(() => setState("idle"), STATE_RESET_MS[state]);
    return () => clearTimeout(timer);
  }, [state]);

  async function upload(file: File) {
    if (file.size > MAX_UPLOAD_BYTES) {
      window.alert("File size must be less than 5.0MB");
      return;
    }
    if (!file.type.startsWith("image/")) {
      window.alert("Please select an image file");
      return;
    }
    setState("uploading");
    let uploadURL: string;
    try {
      ({ uploadURL } = await callApi(endpoints.createUploadUrl, { body: {} }));
    } catch {
      setState("error");
      notifyError("Upload Failed", "Failed to get upload URL");
      return;
    }
    try {
      const response = await fetch(uploadURL, {
        method: "PUT",
        body: file,
        headers: { "Content-Type": file.type },
        credentials: "include",
      });
      if (!response.ok) {
        throw new ApiError(response.status, await response.text(), response.statusText);
      }
      const stored = (await response.json().catch(() => ({}))) as {
        width?: number;
        height?: number;
      };
      // The stored path is the upload URL's last segment, without its query (SPEC.md §7).
      const id = new URL(uploadURL, window.location.href).pathname.split("/").pop() ?? "";
      onUploaded({ path: `/objects/images/${id}`, width: stored.width, height: stored.height });
      setState("success");
      notify("Upload Complete", "Image uploaded successfully");
    } catch (error) {
      setState("error");
      const message =
        error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error);
      window.alert(`Upload failed: ${message}. Please try again.`);
    }
  }

  const label = {
    idle: "Upload image",
    uploading: "Uploading...",
    success: "Uploaded",
    error: "Upload failed",
  }[state];
  const Icon = { idle: ImageUp, uploading: LoaderCircle, success: Check, error: TriangleAlert }[
    state
  ];

  return (
    <div>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
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
        aria-describedby="image-upload-hint"
      >
        <Icon aria-hidden className={`size-4 ${state === "uploading" ? "animate-spin" : ""}`} />
        {label}
      </button>
      <p id="image-upload-hint" className="mt-1 text-sm text-stone-600">
        JPG, PNG or WebP, best 4:5 (e.g. 1080x1350)
      </p>
      <span className="sr-only" aria-live="polite">
        {state === "idle" ? "" : label}
      </span>
    </div>
  );
}
