import { useState } from "react";
import { coverProviderOf } from "../../../common/cover-image.ts";
import { endpoints } from "../../../common/endpoints.ts";
import * as paths from "../../../common/paths.ts";
import type { FediverseReactions } from "../../../common/schemas/admin.ts";
import type { AdminPoem } from "../../../common/schemas/poems.ts";
import { stanzasFromText, stanzasToText } from "../../../common/stanza.ts";
import { callApi } from "../../lib/api.ts";
import { notify, notifyError } from "../../lib/toast.ts";
import { ContentTab } from "./content-tab.tsx";
import { FileUpload } from "./file-upload.tsx";
import { PoemVersions, removedWordsNotice } from "./poem-versions.tsx";
import {
  PublicationBadge,
  publicationState,
  publishAtFieldValue,
  publishAtFromField,
  publishedDay,
  savedWords,
  scheduledTime,
} from "./publication.tsx";
import { StanzaTimingsEditor } from "./stanza-timings-editor.tsx";
import { TagChoices } from "./tag-choices.tsx";
import { Field, FormPanel, inputClass, secondaryButton } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";
import { useAdminList } from "./use-admin-list.ts";
import { useSluggedValues } from "./use-slugged-values.ts";

const stanzaCount = (poem: AdminPoem) =>
  `${poem.stanzas.length} ${poem.stanzas.length === 1 ? "stanza" : "stanzas"}`;

const counted = (n: number, one: string, many: string) => n > 0 && `${n} ${n === 1 ? one : many}`;

/** 'Fediverse: 2 boosts, 1 like, 1 reply' for a poem that has any (decision 046). */
function fediverseNotice(reactions: FediverseReactions[number] | undefined): string | false {
  if (!reactions) return false;
  const parts = [
    counted(reactions.boosts, "boost", "boosts"),
    counted(reactions.likes, "like", "likes"),
    counted(reactions.replies, "reply", "replies"),
  ].filter(Boolean);
  return parts.length > 0 && `Fediverse: ${parts.join(", ")}`;
}

/**
 * Poems: title, publication state and date, stanza count and tag names, a way to the poem's
 * page (its preview, for one not yet out), Edit and Delete (no confirmation, undone from the
 * toast or Recently deleted); drafts and scheduled poems first, and what came from the
 * fediverse (boosts, likes, replies). Times are on the site's clock.
 */
export function PoemsTab({ timeZone, editId }: { timeZone: string; editId?: number }) {
  const { items: reactions } = useAdminList(endpoints.listFediverseReactions);
  return (
    <ContentTab
      entity="Poem"
      openItemId={editId}
      list={endpoints.listAdminPoems}
      remove={endpoints.deletePoem}
      recentlyDeleted={{ list: endpoints.listDeletedPoems, restore: endpoints.restorePoem }}
      isBulk
      timeZone={timeZone}
      describe={(poem) => ({
        title: poem.title,
        badge: <PublicationBadge item={poem} timeZone={timeZone} />,
        link: {
          href: paths.poem(poem.slug),
          label: publicationState(poem) === "published" ? "View" : "Preview",
        },
        detail: [
          publicationState(poem) === "published" &&
            `Published ${publishedDay(poem.publishAt, timeZone)}`,
          stanzaCount(poem),
          poem.tags.map((tag) => tag.name).join(", "),
          removedWordsNotice(poem.removedStanzaWords),
          fediverseNotice(reactions?.find((item) => item.poemId === poem.id)),
        ]
          .filter(Boolean)
          .join(" · "),
      })}
      renderForm={(poem, onDone) => <PoemForm poem={poem} timeZone={timeZone} onDone={onDone} />}
    />
  );
}

function PoemForm({
  poem,
  timeZone,
  onDone,
}: {
  poem?: AdminPoem;
  timeZone: string;
  onDone: (isSaved: boolean) => void;
}) {
  const [publishAt, setPublishAt] = useState(publishAtFieldValue(poem, timeZone));
  const { items: tags } = useAdminList(endpoints.listTags);
  const { values, set } = useSluggedValues(
    {
      title: poem?.title ?? "",
      slug: poem?.slug ?? "",
      stanzas: stanzasToText(poem?.stanzas ?? []),
      audioUrl: poem?.audioUrl ?? "",
      coverUrl: poem?.coverUrl ?? "",
      coverAlt: poem?.coverAlt ?? "",
    },
    !poem,
  );
  const [coverSize, setCoverSize] = useState({
    width: poem?.coverWidth ?? undefined,
    height: poem?.coverHeight ?? undefined,
  });
  const [tagIds, setTagIds] = useState<number[]>(poem?.tags.map((tag) => tag.id) ?? []);
  const [timing, setTiming] = useState({
    timings: poem?.stanzaTimings ?? [],
    duration: poem?.readingDuration ?? undefined,
    isChanged: false,
  });
  const [preview, setPreview] = useState<string>();
  const form = useAdminForm();
  const errors = form.errors;

  /**
   * Opens the poem as readers will see it, unsaved changes and all, in a tab of its own: the
   * form's values are posted to the poem's page, which shows them to the poet only.
   */
  function openPreview() {
    const preview = document.createElement("form");
    preview.method = "post";
    preview.action = `${paths.poem(values.slug.trim() || "untitled")}?preview`;
    preview.target = "poem-preview";
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "poem";
    field.value = JSON.stringify(formBody(true));
    preview.append(field);
    document.body.append(preview);
    preview.submit();
    preview.remove();
  }

  async function checkCover() {
    const url = values.coverUrl.trim();
    if (!url) return;
    // A cover uploaded here is in object storage already; only another site's URL is checked.
    if (coverProviderOf(url) !== "object-storage") {
      try {
        await callApi(endpoints.validateImageUrl, { body: { url } });
      } catch {
        notifyError("Invalid Image URL", "Please enter a valid image URL");
        return;
      }
    }
    setPreview(url);
  }

  const isPublished = poem !== undefined && publicationState(poem) === "published";
  const scheduledAt = publishAt ? new Date(publishAtFromField(publishAt, timeZone)) : undefined;
  const isScheduling = scheduledAt !== undefined && scheduledAt.getTime() > Date.now();
  /** The primary button says what it will do. */
  const submitLabel = isScheduling
    ? `Schedule for ${scheduledTime(scheduledAt, timeZone)}`
    : isPublished
      ? "Update"
      : "Publish now";

  /** What the form holds, as a save sends it. */
  function formBody(draft: boolean) {
    const coverUrl = values.coverUrl.trim();
    return {
      draft,
      // A new draft without a time keeps the server's default, and an update of a published
      // poem its date; everything else says when.
      ...((draft && !publishAt && !poem) || (!draft && isPublished && !publishAt)
        ? {}
        : { publishAt: publishAtFromField(publishAt, timeZone) }),
      title: values.title,
      slug: values.slug,
      stanzas: stanzasFromText(values.stanzas),
      audioUrl: values.audioUrl.trim(),
      coverUrl,
      coverAlt: values.coverAlt.trim() || values.title.trim(),
      coverProvider: coverProviderOf(coverUrl),
      coverWidth: coverUrl ? (coverSize.width ?? null) : null,
      coverHeight: coverUrl ? (coverSize.height ?? null) : null,
      tagIds,
      // Sent only when the poet marked them: left out, the server keeps them while the stanzas
      // and the reading stay the same (docs/product/chapbook.md).
      ...(timing.isChanged && {
        stanzaTimings: timing.timings.length > 0 ? timing.timings : null,
        readingDuration: timing.duration ?? null,
      }),
    };
  }

  /**
   * The primary button publishes now, schedules (at 'Publish at') or, for a poem already out,
   * updates it and keeps its publication date; 'Save as draft' keeps it from readers. The toast
   * says which it did.
   */
  async function save(draft = false) {
    const body = formBody(draft);
    const messages = saveMessages("Poem", !poem);
    const failure = { failure: messages.failure };
    const saved = poem
      ? await form.submit(endpoints.updatePoem, { params: { id: poem.id }, body }, failure)
      : await form.submit(endpoints.createPoem, { body }, failure);
    if (!saved) return;
    notify(savedWords(saved, isPublished, timeZone), messages.success);
    const removed = removedWordsNotice(saved.removedStanzaWords);
    if (removed)
      notify("Readers' words set aside", `${removed}: restore a version to bring them back.`);
    onDone(true);
  }

  const text = (name: keyof typeof values, label: string, hint?: string) => (
    <Field label={label} name={`poem-${name}`} errors={errors[name]} hint={hint}>
      {(props) => (
        <input
          {...props}
          value={values[name]}
          onChange={(event) => {
            if (name === "coverUrl") setCoverSize({ width: undefined, height: undefined });
            set(name, event.target.value);
          }}
          className={inputClass}
        />
      )}
    </Field>
  );

  return (
    <FormPanel
      title={poem ? "Edit Poem" : "New Poem"}
      onCancel={() => onDone(false)}
      onSubmit={() => save()}
      isSaving={form.isSaving}
      formError={form.formError}
      submitLabel={submitLabel}
      otherActions={
        <>
          <button
            type="button"
            className={secondaryButton}
            disabled={form.isSaving}
            onClick={() => save(true)}
          >
            Save as draft
          </button>
          <button type="button" className={secondaryButton} onClick={openPreview}>
            Preview
          </button>
        </>
      }
    >
      {text("title", "Title")}
      {text("slug", "Slug", "Lowercase letters, numbers and hyphens")}
      <Field
        label="Stanzas"
        name="poem-stanzas"
        errors={errors.stanzas}
        hint="One line per line; a blank line between stanzas"
      >
        {(props) => (
          <textarea
            {...props}
            rows={10}
            value={values.stanzas}
            onChange={(event) => set("stanzas", event.target.value)}
            className={`${inputClass} font-serif`}
          />
        )}
      </Field>
      <div className="space-y-2">
        {text(
          "audioUrl",
          "Audio URL",
          "An https:// URL or an uploaded recording's /objects/audio/ path",
        )}
        <FileUpload kind="audio" onUploaded={(file) => set("audioUrl", file.path)} />
        {values.audioUrl.trim() && (
          <StanzaTimingsEditor
            // Another reading is another waveform: the editor starts again for it.
            key={values.audioUrl.trim()}
            audioUrl={values.audioUrl.trim()}
            stanzaCount={stanzasFromText(values.stanzas).length}
            timings={timing.timings}
            duration={timing.duration}
            errors={errors.stanzaTimings ?? errors.readingDuration}
            onChange={(timings, duration) =>
              setTiming((current) => ({
                timings,
                duration,
                isChanged: current.isChanged || timings !== current.timings,
              }))
            }
          />
        )}
      </div>
      <div className="space-y-2">
        {text("coverUrl", "Cover image", "An image URL or an uploaded image's /objects/ path")}
        <div className="flex flex-wrap items-start gap-3">
          <FileUpload
            kind="images"
            onUploaded={(image) => {
              set("coverUrl", image.path);
              setCoverSize({ width: image.width, height: image.height });
              setPreview(image.path);
            }}
          />
          <button type="button" className={secondaryButton} onClick={checkCover}>
            Check cover
          </button>
        </div>
        {preview && (
          <img
            src={preview}
            alt="Cover preview"
            className="max-h-64 rounded border border-stone-200"
            onLoad={(event) => {
              const image = event.currentTarget;
              setCoverSize((size) =>
                size.width ? size : { width: image.naturalWidth, height: image.naturalHeight },
              );
            }}
            onError={() => {
              setPreview(undefined);
              notifyError("Image Load Error", "Failed to load image preview");
            }}
          />
        )}
      </div>
      {text("coverAlt", "Cover alt text", "Left empty, the title is used")}
      <Field
        label={`Publish at (${timeZone})`}
        name="poem-publishAt"
        errors={errors.publishAt}
        hint="Left empty, it is published now; a later time schedules it"
      >
        {(props) => (
          <div className="flex flex-wrap gap-2">
            <input
              {...props}
              type="datetime-local"
              value={publishAt}
              onChange={(event) => setPublishAt(event.target.value)}
              className={`${inputClass} max-w-xs`}
            />
            <button type="button" className={secondaryButton} onClick={() => setPublishAt("")}>
              Now
            </button>
          </div>
        )}
      </Field>
      <TagChoices
        tags={tags ?? []}
        chosen={tagIds}
        onChange={setTagIds}
        legend="Tags"
        errors={errors.tagIds}
      />
      {poem && <PoemVersions poem={poem} timeZone={timeZone} onRestored={() => onDone(true)} />}
    </FormPanel>
  );
}
