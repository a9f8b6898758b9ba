import type { ReactNode } from "react";

/** The admin area's few shared looks, so every tab and form reads the same. */
export const buttonClass =
  "inline-flex items-center justify-center gap-2 rounded-full px-4 py-2 text-sm font-medium disabled:opacity-60";
export const primaryButton = `${buttonClass} bg-ember-700 text-white hover:bg-ember-800`;
export const secondaryButton = `${buttonClass} border border-stone-400 bg-white text-stone-800 hover:bg-stone-100`;
export const inputClass =
  "mt-1 w-full rounded border border-stone-400 bg-white px-3 py-2 font-normal text-stone-900";

/** A labelled form field with its error messages, announced to screen readers. */
export function Field({
  label,
  name,
  errors,
  hint,
  children,
}: {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
  children: (props: {
    id: string;
    "aria-describedby"?: string;
    "aria-invalid"?: boolean;
  }) => ReactNode;
}) {
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : "", errors?.length ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="text-sm font-medium text-stone-800">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": errors?.length ? true : undefined,
      })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 font-normal text-stone-600">
          {hint}
        </p>
      )}
      {errors?.length ? (
        <p id={`${id}-error`} role="alert" className="mt-1 font-normal text-red-800">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A form panel that opens for create or edit and closes on cancel or success
 * (docs/product/admin.md, Common behaviour).
 */
export function FormPanel({
  title,
  onCancel,
  onSubmit,
  isSaving,
  formError,
  submitLabel = "Save",
  otherActions,
  children,
}: {
  title: string;
  onCancel: () => void;
  onSubmit: () => void;
  isSaving: boolean;
  formError?: string;
  /** What the primary button says it will do ('Publish now', 'Update'). */
  submitLabel?: string;
  /** Buttons beside Save (a poem's 'Save as draft'). */
  otherActions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form
      aria-label={title}
      className="mb-6 space-y-4 rounded-lg border border-stone-300 bg-white p-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h3 className="font-serif text-xl">{title}</h3>
      {children}
      {formError && (
        <p role="alert" className="text-sm text-red-800">
          {formError}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={isSaving}>
          {isSaving ? "Saving..." : submitLabel}
        </button>
        {otherActions}
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
