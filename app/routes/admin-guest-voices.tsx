import { useState } from "react";
import { Link } from "react-router";
import { endpoints } from "../../common/endpoints.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import type { StoredGuestVoice } from "../../common/schemas/guest-voices.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { FileUpload } from "../components/admin/file-upload.tsx";
import { Field, FormPanel, inputClass, secondaryButton } from "../components/admin/ui.tsx";
import { saveMessages, useAdminForm } from "../components/admin/use-admin-form.ts";
import { useAdminList } from "../components/admin/use-admin-list.ts";
import { ArrowDown, ArrowUp } from "../components/icons.ts";
import { adminMeta } from "../lib/admin-access.ts";

export const meta = () => adminMeta("Guest Voices");

/** The form's text: the poem's paragraphs are separated by blank lines; "~" alone is a spacer. */
const SPACER = "~";
const PARAGRAPH_BREAK = /\n[ \t]*\n/;

const poemAsText = (body: string[]) =>
  body.map((paragraph) => (paragraph === "" ? SPACER : paragraph)).join("\n\n");
const poemFromText = (text: string) =>
  text
    .split(PARAGRAPH_BREAK)
    .map((paragraph) => (paragraph.trim() === SPACER ? "" : paragraph.replace(/^\n+|\n+$/g, "")));

type FormValues = Record<
  "name" | "handle" | "socialUrl" | "bio" | "title" | "poem" | "avatarUrl" | "headerImageUrl",
  string
>;

function VoiceForm({ voice, onDone }: { voice: StoredGuestVoice; onDone: () => void }) {
  const { errors, formError, isSaving, submit } = useAdminForm();
  const [values, setValues] = useState<FormValues>({
    name: voice.name,
    handle: voice.handle,
    socialUrl: voice.socialUrl,
    bio: voice.bio,
    title: voice.title,
    poem: poemAsText(voice.body),
    avatarUrl: voice.avatarUrl ?? "",
    headerImageUrl: voice.headerImageUrl ?? "",
  });
  const set = (name: keyof FormValues, value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const text = (name: keyof FormValues, label: string, hint?: string) => (
    <Field label={label} name={name} errors={errors[name]} hint={hint}>
      {(props) => (
        <input
          {...props}
          className={inputClass}
          value={values[name]}
          onChange={(event) => set(name, event.target.value)}
        />
      )}
    </Field>
  );

  async function save() {
    const { poem, ...fields } = values;
    const saved = await submit(
      endpoints.updateGuestVoice,
      { params: { id: voice.id }, body: { ...fields, body: poemFromText(poem) } },
      saveMessages("Guest voice", false),
    );
    if (saved) onDone();
  }

  return (
    <FormPanel
      title={`Edit ${voice.name}`}
      onCancel={onDone}
      onSubmit={save}
      isSaving={isSaving}
      formError={formError}
    >
      {text("name", "Name")}
      {text("handle", "Handle")}
      {text("socialUrl", "Link")}
      <Field label="Bio" name="bio" errors={errors.bio}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            className={inputClass}
            value={values.bio}
            onChange={(event) => set("bio", event.target.value)}
          />
        )}
      </Field>
      {text("title", "Poem title")}
      <Field
        label="Poem text"
        name="body"
        errors={errors.body}
        hint={`A blank line starts a new paragraph; a paragraph of just "${SPACER}" is a spacer.`}
      >
        {(props) => (
          <textarea
            {...props}
            rows={12}
            className={`${inputClass} font-serif`}
            value={values.poem}
            onChange={(event) => set("poem", event.target.value)}
          />
        )}
      </Field>
      <div className="space-y-2">
        {text("avatarUrl", "Avatar image", "An image URL or an uploaded image's /objects/ path")}
        <FileUpload kind="images" onUploaded={(image) => set("avatarUrl", image.path)} />
      </div>
      <div className="space-y-2">
        {text("headerImageUrl", "Header image", "Shown above the voice's page; empty for none")}
        <FileUpload kind="images" onUploaded={(image) => set("headerImageUrl", image.path)} />
      </div>
    </FormPanel>
  );
}

/**
 * The guest voices in the poet's order (docs/product/admin.md, Guest voices): edit, move up or
 * down, hide or show. Readers see the shown ones on /guest-voices and home.
 */
export default function AdminGuestVoices() {
  const { items: voices, isFailed, reload } = useAdminList(endpoints.listGuestVoices);
  const [editing, setEditing] = useState<number>();

  async function change(
    voice: StoredGuestVoice,
    body: { position?: number; hidden?: boolean },
    success: string,
  ) {
    const result = await adminCall(
      endpoints.updateGuestVoice,
      { params: { id: voice.id }, body },
      { success, failure: "Failed to update guest voice" },
    );
    if (result.ok) await reload();
  }

  return (
    <AdminPage title="Guest Voices">
      <p className="mt-2 text-stone-700">
        Publish a new voice from{" "}
        <Link to={pages.adminSubmissions} className="text-ember-700 underline underline-offset-4">
          Guest Submissions
        </Link>
        .
      </p>
      {isFailed && <p role="alert">The guest voices could not be loaded.</p>}
      <ol className="mt-6 space-y-4">
        {voices?.map((voice, index) => (
          <li key={voice.id} className="rounded-lg border border-stone-300 bg-white p-5">
            {editing === voice.id ? (
              <VoiceForm
                voice={voice}
                onDone={async () => {
                  setEditing(undefined);
                  await reload();
                }}
              />
            ) : (
              <article aria-labelledby={`voice-${voice.id}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={`voice-${voice.id}`} className="font-serif text-xl">
                    {voice.name}
                  </h2>
                  {voice.hidden && (
                    <span className="rounded bg-stone-100 px-2 py-0.5 text-xs text-stone-800">
                      Hidden
                    </span>
                  )}
                </div>
                <p className="mt-1 break-words text-stone-700">
                  {voice.title}
                  {voice.handle && ` · ${voice.handle}`}
                </p>
                <div className="mt-4 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => setEditing(voice.id)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    aria-label={`Move ${voice.name} up`}
                    disabled={index === 0}
                    onClick={() => change(voice, { position: index }, `${voice.name} moved up`)}
                  >
                    <ArrowUp aria-hidden="true" className="h-4 w-4" /> Up
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    aria-label={`Move ${voice.name} down`}
                    disabled={index === voices.length - 1}
                    onClick={() =>
                      change(voice, { position: index + 2 }, `${voice.name} moved down`)
                    }
                  >
                    <ArrowDown aria-hidden="true" className="h-4 w-4" /> Down
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() =>
                      change(
                        voice,
                        { hidden: !voice.hidden },
                        voice.hidden ? `${voice.name} is shown` : `${voice.name} is hidden`,
                      )
                    }
                  >
                    {voice.hidden ? "Show" : "Hide"}
                  </button>
                  {!voice.hidden && (
                    <Link
                      to={paths.guestVoice(voice.slug)}
                      className="self-center text-sm text-ember-700 underline underline-offset-4"
                    >
                      View
                    </Link>
                  )}
                </div>
              </article>
            )}
          </li>
        ))}
      </ol>
    </AdminPage>
  );
}
