import { useState } from "react";
import { formatDate } from "../../../common/dates.ts";
import { endpoints } from "../../../common/endpoints.ts";
import {
  CHAPBOOK_TRIM_LABELS,
  CHAPBOOK_TRIM_SIZES,
  type Chapbook,
  type ChapbookTrim,
} from "../../../common/schemas/chapbooks.ts";
import type { AdminPoem } from "../../../common/schemas/poems.ts";
import { ArrowDown, ArrowUp, GripVertical } from "../icons.ts";
import { chapbookStarts, poemIdsForTheme } from "./chapbook-starts.ts";
import { FileUpload } from "./file-upload.tsx";
import { Field, FormPanel, inputClass, secondaryButton } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";

type Texts = Record<
  "title" | "subtitle" | "dedication" | "epigraph" | "acknowledgements" | "aboutPoet",
  string
>;
type Flags = Record<"bleed" | "rectoStarts" | "downloadable" | "withReadings", boolean>;

/** Each chosen poem's first publication here, as the acknowledgements' first draft. */
export function acknowledgementsFor(poems: AdminPoem[], siteTitle: string): string {
  return poems
    .map(
      (poem) =>
        `"${poem.title}" first appeared on ${siteTitle}, ${formatDate(poem.publishAt, "utc")}.`,
    )
    .join("\n");
}

/** Moves the item at `from` to `to`, the others keeping their order. */
const moved = (ids: number[], from: number, to: number) => {
  const next = [...ids];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
};

/**
 * A chapbook's form (docs/product/chapbook.md): its poems chosen and ordered (dragging, or the
 * Move buttons, which work from the keyboard), its front and back matter, trim and downloads.
 */
export function ChapbookForm({
  chapbook,
  poems,
  siteTitle,
  poetBio,
  bookSlotTitles,
  onDone,
}: {
  chapbook?: Chapbook;
  poems: AdminPoem[];
  siteTitle: string;
  poetBio: string;
  bookSlotTitles: string[];
  onDone: () => void;
}) {
  const { errors, formError, isSaving, submit } = useAdminForm();
  const [poemIds, setPoemIds] = useState<number[]>(chapbook?.poemIds ?? []);
  const [coverUrl, setCoverUrl] = useState(chapbook?.coverUrl ?? "");
  const starts = chapbook ? [] : chapbookStarts(poems, bookSlotTitles);
  const [trim, setTrim] = useState<ChapbookTrim>(chapbook?.trim ?? "a5");
  const [texts, setTexts] = useState<Texts>({
    title: chapbook?.title ?? "",
    subtitle: chapbook?.subtitle ?? "",
    dedication: chapbook?.dedication ?? "",
    epigraph: chapbook?.epigraph ?? "",
    acknowledgements: chapbook?.acknowledgements ?? "",
    aboutPoet: chapbook?.aboutPoet ?? poetBio,
  });
  const [flags, setFlags] = useState<Flags>({
    bleed: chapbook?.bleed ?? false,
    rectoStarts: chapbook?.rectoStarts ?? false,
    downloadable: chapbook?.downloadable ?? false,
    withReadings: chapbook?.withReadings ?? false,
  });
  const [dragged, setDragged] = useState<number>();
  const byId = new Map(poems.map((poem) => [poem.id, poem]));
  const chosen = poemIds.flatMap((id) => byId.get(id) ?? []);

  const text = (name: keyof Texts, label: string, rows = 0) => (
    <Field label={label} name={name} errors={errors[name]}>
      {(props) => {
        const common = {
          ...props,
          className: inputClass,
          value: texts[name],
          onChange: (event: { target: { value: string } }) =>
            setTexts((current) => ({ ...current, [name]: event.target.value })),
        };
        return rows > 0 ? <textarea {...common} rows={rows} /> : <input {...common} />;
      }}
    </Field>
  );
  const flag = (name: keyof Flags, label: string) => (
    <label className="flex items-center gap-2">
      <input
        type="checkbox"
        checked={flags[name]}
        onChange={(event) => setFlags((current) => ({ ...current, [name]: event.target.checked }))}
      />
      {label}
    </label>
  );

  async function save() {
    const body = { ...texts, poemIds, trim, ...flags, coverUrl };
    const messages = saveMessages("Chapbook", !chapbook);
    const saved = chapbook
      ? await submit(endpoints.updateChapbook, { params: { id: chapbook.id }, body }, messages)
      : await submit(endpoints.createChapbook, { body }, messages);
    if (saved) onDone();
  }

  return (
    <FormPanel
      title={chapbook ? `Edit ${chapbook.title}` : "New chapbook"}
      onCancel={onDone}
      onSubmit={save}
      isSaving={isSaving}
      formError={formError}
    >
      {starts.length > 0 && (
        <label className="block text-sm font-medium text-stone-800">
          Start from a book slot or a theme
          <select
            className={inputClass}
            value=""
            onChange={(event) => {
              const start = starts.find((option) => option.key === event.target.value);
              if (!start) return;
              setPoemIds(poemIdsForTheme(poems, start.theme));
              setTexts((current) => ({ ...current, title: current.title || start.title }));
            }}
          >
            <option value="">Choose the poems yourself…</option>
            {starts.map((start) => (
              <option key={start.key} value={start.key}>
                {start.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {text("title", "Title")}
      {text("subtitle", "Subtitle")}
      {/* min-w-0: a fieldset is otherwise as wide as its widest line, past a phone's width. */}
      <fieldset className="min-w-0">
        <legend className="font-medium">Poems, in order</legend>
        {errors.poemIds && (
          <p role="alert" className="text-sm text-red-800">
            {errors.poemIds[0]}
          </p>
        )}
        <ol className="mt-2 space-y-1" aria-label="Poems in the chapbook">
          {chosen.map((poem, index) => (
            <li
              key={poem.id}
              draggable
              onDragStart={() => setDragged(index)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={() => {
                if (dragged !== undefined) setPoemIds((ids) => moved(ids, dragged, index));
                setDragged(undefined);
              }}
              className="flex flex-wrap items-center gap-2 rounded border border-stone-200 bg-stone-50 px-2 py-1"
            >
              <GripVertical
                aria-hidden="true"
                className="h-4 w-4 shrink-0 cursor-grab text-stone-500"
              />
              {/* On a phone the title has its row and the buttons the next one. */}
              <span className="min-w-0 flex-1 basis-48">
                {index + 1}. {poem.title}
              </span>
              <span className="ml-auto flex gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  aria-label={`Move ${poem.title} up`}
                  disabled={index === 0}
                  onClick={() => setPoemIds((ids) => moved(ids, index, index - 1))}
                >
                  <ArrowUp aria-hidden="true" className="h-4 w-4" />
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  aria-label={`Move ${poem.title} down`}
                  disabled={index === chosen.length - 1}
                  onClick={() => setPoemIds((ids) => moved(ids, index, index + 1))}
                >
                  <ArrowDown aria-hidden="true" className="h-4 w-4" />
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  aria-label={`Remove ${poem.title}`}
                  onClick={() => setPoemIds((ids) => ids.filter((id) => id !== poem.id))}
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
        <label className="mt-2 block">
          <span className="sr-only">Add a poem</span>
          <select
            className={inputClass}
            value=""
            onChange={(event) => {
              const id = Number(event.target.value);
              if (id) setPoemIds((ids) => [...ids, id]);
            }}
          >
            <option value="">Add a poem…</option>
            {poems
              .filter((poem) => !poemIds.includes(poem.id))
              .map((poem) => (
                <option key={poem.id} value={poem.id}>
                  {poem.title}
                </option>
              ))}
          </select>
        </label>
      </fieldset>
      <fieldset className="min-w-0 space-y-2">
        <legend className="font-medium">Cover</legend>
        {coverUrl ? (
          <div className="flex items-end gap-3">
            <img
              src={coverUrl}
              alt="The chapbook's cover as uploaded"
              width={96}
              height={144}
              className="h-36 w-24 rounded border border-stone-200 object-cover"
            />
            <button type="button" className={secondaryButton} onClick={() => setCoverUrl("")}>
              Remove cover
            </button>
          </div>
        ) : (
          <p className="text-sm text-stone-700">
            Without a cover of your own, the chapbook gets a typographic one: its title and your
            name.
          </p>
        )}
        <FileUpload
          kind="images"
          hint="JPG, PNG or WebP at the trim's shape, e.g. 1600 × 2400 for 6 × 9 in; it fills the front, bleed included"
          onUploaded={(file) => setCoverUrl(file.path)}
        />
        {errors.coverUrl && (
          <p role="alert" className="text-sm text-red-800">
            {errors.coverUrl[0]}
          </p>
        )}
      </fieldset>
      {text("dedication", "Dedication", 2)}
      {text("epigraph", "Epigraph", 3)}
      {text("acknowledgements", "Acknowledgements", 5)}
      <button
        type="button"
        className={secondaryButton}
        onClick={() =>
          setTexts((current) => ({
            ...current,
            acknowledgements: acknowledgementsFor(chosen, siteTitle),
          }))
        }
      >
        Fill acknowledgements from the site
      </button>
      {text("aboutPoet", "About the poet", 4)}
      <Field label="Trim size" name="trim" errors={errors.trim}>
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={trim}
            onChange={(event) => setTrim(event.target.value as ChapbookTrim)}
          >
            {CHAPBOOK_TRIM_SIZES.map((size) => (
              <option key={size} value={size}>
                {CHAPBOOK_TRIM_LABELS[size]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="space-y-1">
        {flag("bleed", "Add bleed for the printer (3 mm, or 0.125 in)")}
        {flag("rectoStarts", "Start each poem on a right-hand page")}
        {flag("downloadable", "Readers may download it")}
        {flag("withReadings", "Carry the readings (the EPUB reads the timed poems aloud)")}
      </div>
    </FormPanel>
  );
}
