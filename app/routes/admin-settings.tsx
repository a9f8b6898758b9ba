import { type ReactNode, useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import {
  BOOK_SLOTS,
  type BookSlotWords,
  type BooksPageWords,
  ORIGINAL_BOOKS_PAGE,
} from "../../common/book-slots.ts";
import { HOME_THEMES, POETRY_PILLARS } from "../../common/constants.ts";
import { endpoints } from "../../common/endpoints.ts";
import {
  CHAPBOOK_FACE_NAMES,
  CHAPBOOK_FACES,
  type ChapbookFace,
} from "../../common/schemas/chapbook-faces.ts";
import type { TagRef } from "../../common/schemas/poems.ts";
import {
  BOOK_LABEL_MAX_LENGTH,
  BOOKS_CLOSING_MAX_LENGTH,
  COMING_SOON_MAX_LENGTH,
  COPYRIGHT_FROM_MIN,
  LINK_LABEL_MAX_LENGTH,
  LINKS_MAX,
  POET_BIO_MAX_LENGTH,
  POET_NAME_MAX_LENGTH,
  PULL_QUOTE_MAX_LENGTH,
  SITE_TITLE_MAX_LENGTH,
  type SiteSettings,
  type SiteSettingsInput,
  TAGLINE_MAX_LENGTH,
} from "../../common/schemas/settings.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { FileUpload } from "../components/admin/file-upload.tsx";
import { Field, inputClass, primaryButton, secondaryButton } from "../components/admin/ui.tsx";
import { useAdminForm } from "../components/admin/use-admin-form.ts";
import { adminMeta } from "../lib/admin-access.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin-settings";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const [settings, tags, poems] = await Promise.all([
    services.siteSettings.get(context.get(adminContext)),
    services.poems.listTags(),
    services.poems.listPoems(),
  ]);
  return { settings, tags, poems: poems.map(({ id, title }) => ({ id, title })) };
}

export const meta = () => adminMeta("Site Settings");

/** The form's values: text as typed, a tag choice as the id's text ('' = the original). */
interface FormValues {
  siteTitle: string;
  tagline: string;
  poetName: string;
  poetBio: string;
  portraitUrl: string;
  links: Array<{ label: string; url: string }>;
  filterTagIds: string[];
  homeThemeTagIds: string[];
  bookSlotTitles: string[];
  copyrightFrom: string;
  holdWhispers: boolean;
  chapbookFace: ChapbookFace;
  stanzaNotesCarryReading: boolean;
  booksPage: BooksPageWords;
  /** The pinned poem's id as text; '' is the newest. */
  pinnedPoemId: string;
}

const tagChoices = (ids: number[] | null, count: number) =>
  ids ? ids.map(String) : Array.from({ length: count }, () => "");

function formValues(settings: SiteSettings): FormValues {
  return {
    siteTitle: settings.siteTitle,
    tagline: settings.tagline,
    poetName: settings.poetName ?? "",
    poetBio: settings.poetBio ?? "",
    portraitUrl: settings.portraitUrl ?? "",
    links: settings.links,
    filterTagIds: tagChoices(settings.filterTagIds, POETRY_PILLARS.length),
    homeThemeTagIds: tagChoices(settings.homeThemeTagIds, HOME_THEMES.length),
    bookSlotTitles: settings.bookSlotTitles,
    copyrightFrom: settings.copyrightFrom === null ? "" : String(settings.copyrightFrom),
    holdWhispers: settings.holdWhispers,
    chapbookFace: settings.chapbookFace,
    stanzaNotesCarryReading: settings.stanzaNotesCarryReading,
    booksPage: settings.booksPage,
    pinnedPoemId: settings.pinnedPoemId === null ? "" : String(settings.pinnedPoemId),
  };
}

/** No tag chosen is the originals; a partial choice goes as it is, for the server to refuse. */
const chosenTagIds = (choices: string[]) =>
  choices.every((choice) => choice === "") ? null : choices.filter(Boolean).map(Number);

/** The copyright year as typed: empty is "not set", anything else the server judges. */
const yearOf = (text: string) => (text.trim() === "" ? null : Number(text));

/**
 * Site Settings (beside Digest Admin): the site's title and tagline, the poet's name, bio,
 * portrait and links, the poem home shows first, the chips and themes, the Books page's words,
 * the copyright line's first year and whether new whispers wait for the poet's approval. One
 * Save sends the whole form.
 */
export default function AdminSettings({ loaderData }: Route.ComponentProps) {
  const [values, setValues] = useState(() => formValues(loaderData.settings));
  const form = useAdminForm();
  const revalidator = useRevalidator();
  const [refusals, setRefusals] = useState(0);
  // Once the refused fields are marked, the first of them is brought into view and focused.
  useEffect(() => {
    if (refusals === 0) return;
    const first = document.querySelector<HTMLElement>(
      'form[aria-label="Site Settings"] [aria-invalid="true"]',
    );
    first?.scrollIntoView({ block: "center" });
    first?.focus({ preventScroll: true });
  }, [refusals]);
  const { errors } = form;
  const set = <K extends keyof FormValues>(name: K, value: FormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));
  const errorsUnder = (prefix: string) =>
    Object.entries(errors).flatMap(([key, messages]) =>
      key === prefix || key.startsWith(`${prefix}.`) ? messages : [],
    );

  async function save() {
    const body = {
      siteTitle: values.siteTitle,
      tagline: values.tagline,
      poetName: values.poetName,
      poetBio: values.poetBio,
      portraitUrl: values.portraitUrl,
      links: values.links.filter((link) => link.label.trim() || link.url.trim()),
      filterTagIds: chosenTagIds(values.filterTagIds),
      homeThemeTagIds: chosenTagIds(values.homeThemeTagIds),
      bookSlotTitles: values.bookSlotTitles,
      copyrightFrom: yearOf(values.copyrightFrom),
      holdWhispers: values.holdWhispers,
      chapbookFace: values.chapbookFace,
      stanzaNotesCarryReading: values.stanzaNotesCarryReading,
      booksPage: values.booksPage,
      pinnedPoemId: values.pinnedPoemId ? Number(values.pinnedPoemId) : null,
    };
    const saved = await form.submit(
      endpoints.updateSiteSettings,
      { body },
      { success: "Settings updated successfully", failure: "Failed to update settings" },
    );
    if (!saved) {
      await saveTheRest(body);
      return;
    }
    setValues(formValues(saved));
    // The header and the page title show a new site title at once, not at the next visit.
    await revalidator.revalidate();
  }

  /**
   * After a refusal: the marked fields keep what was typed, the first is brought into view, and
   * every other change is saved on its own, so one wrong field does not lose the rest.
   */
  async function saveTheRest(body: SiteSettingsInput) {
    const refused = new Set(Object.keys(form.refusedFields()).map((key) => key.split(".")[0]));
    if (refused.size === 0) return;
    setRefusals((count) => count + 1);
    const rest = Object.fromEntries(
      Object.entries(body).filter(([key]) => !refused.has(key)),
    ) as SiteSettingsInput;
    if (Object.keys(rest).length === 0) return;
    const result = await adminCall(
      endpoints.updateSiteSettings,
      { body: rest },
      {
        success: "Your other changes were saved; the marked fields were not",
        failure: "Failed to update settings",
      },
    );
    if (result.ok) await revalidator.revalidate();
  }

  const text = (
    name: "siteTitle" | "tagline" | "poetName",
    label: string,
    maxLength: number,
    hint?: string,
  ) => (
    <Field label={label} name={`settings-${name}`} errors={errors[name]} hint={hint}>
      {(props) => (
        <input
          {...props}
          value={values[name]}
          maxLength={maxLength}
          onChange={(event) => set(name, event.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );

  return (
    <AdminPage title="Site Settings">
      <form
        aria-label="Site Settings"
        className="mt-8 space-y-6"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Panel title="The site">
          {text("siteTitle", "Site title", SITE_TITLE_MAX_LENGTH)}
          {text("tagline", "Tagline", TAGLINE_MAX_LENGTH, "The line under the title on home.")}
          <Field
            label="Copyright from (year)"
            name="settings-copyrightFrom"
            errors={errors.copyrightFrom}
            hint="Leave empty for the original '© 2025' line."
          >
            {(props) => (
              <input
                {...props}
                type="number"
                inputMode="numeric"
                min={COPYRIGHT_FROM_MIN}
                value={values.copyrightFrom}
                onChange={(event) => set("copyrightFrom", event.target.value)}
                className={`${inputClass} block max-w-40`}
              />
            )}
          </Field>
        </Panel>

        <Panel title="The poet">
          {text("poetName", "Poet's name", POET_NAME_MAX_LENGTH)}
          <Field
            label="Short bio"
            name="settings-poetBio"
            errors={errors.poetBio}
            hint={`${values.poetBio.length} of ${POET_BIO_MAX_LENGTH} characters. A blank line starts a paragraph.`}
          >
            {(props) => (
              <textarea
                {...props}
                rows={5}
                maxLength={POET_BIO_MAX_LENGTH}
                value={values.poetBio}
                onChange={(event) => set("poetBio", event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <Portrait
            path={values.portraitUrl}
            errors={errors.portraitUrl}
            onChange={(path) => set("portraitUrl", path)}
          />
          <Links
            links={values.links}
            errorsAt={(index) => errorsUnder(`links.${index}`)}
            listErrors={errors.links}
            onChange={(links) => set("links", links)}
          />
        </Panel>

        <Panel title="Chips and themes">
          <TagSlots
            legend="Poetry filter chips"
            name="filterTagIds"
            originals={POETRY_PILLARS}
            tags={loaderData.tags}
            chosen={values.filterTagIds}
            errors={errorsUnder("filterTagIds")}
            onChange={(chosen) => set("filterTagIds", chosen)}
          />
          <TagSlots
            legend="Home's Current Themes"
            name="homeThemeTagIds"
            originals={HOME_THEMES}
            tags={loaderData.tags}
            chosen={values.homeThemeTagIds}
            errors={errorsUnder("homeThemeTagIds")}
            onChange={(chosen) => set("homeThemeTagIds", chosen)}
          />
        </Panel>

        <Panel title="Home">
          <Field
            label="Poem on home"
            name="settings-pinnedPoemId"
            errors={errors.pinnedPoemId}
            hint="Shown under the title, in the first screen. The newest poem until you choose one."
          >
            {(props) => (
              <select
                {...props}
                value={values.pinnedPoemId}
                onChange={(event) => set("pinnedPoemId", event.target.value)}
                className={inputClass}
              >
                <option value="">The newest poem</option>
                {loaderData.poems.map((poem) => (
                  <option key={poem.id} value={poem.id}>
                    {poem.title}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </Panel>

        <Panel title="Books page">
          <p className="text-sm text-stone-700">
            A book whose title matches a slot's title is published in that slot. Clear a text to
            leave it off the page.
          </p>
          {values.bookSlotTitles.map((title, index) => (
            <BookSlotFields
              key={BOOK_SLOTS[index]?.order ?? index}
              index={index}
              title={title}
              words={values.booksPage.slots[index] ?? ORIGINAL_BOOKS_PAGE.slots[index]}
              titleErrors={errorsUnder(`bookSlotTitles.${index}`)}
              errorsAt={(field) => errorsUnder(`booksPage.slots.${index}.${field}`)}
              onTitle={(value) =>
                set(
                  "bookSlotTitles",
                  values.bookSlotTitles.map((existing, at) => (at === index ? value : existing)),
                )
              }
              onWords={(words) =>
                set("booksPage", {
                  ...values.booksPage,
                  slots: values.booksPage.slots.map((existing, at) =>
                    at === index ? words : existing,
                  ),
                })
              }
            />
          ))}
          <Field
            label="Closing sentence"
            name="settings-booksPage-closing"
            errors={errorsUnder("booksPage.closing")}
            hint="Under the five books. Leave empty for none."
          >
            {(props) => (
              <textarea
                {...props}
                rows={3}
                maxLength={BOOKS_CLOSING_MAX_LENGTH}
                value={values.booksPage.closing}
                onChange={(event) =>
                  set("booksPage", { ...values.booksPage, closing: event.target.value })
                }
                className={inputClass}
              />
            )}
          </Field>
        </Panel>

        <Panel title="Whispers">
          <label className="flex items-start gap-3 text-sm text-stone-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={values.holdWhispers}
              onChange={(event) => set("holdWhispers", event.target.checked)}
            />
            <span>
              <span className="font-medium">Hold new whispers for approval</span>
              <span className="block text-stone-600">
                A new whisper stays hidden until you approve it in the Whispers tab.
              </span>
            </span>
          </label>
        </Panel>

        <Panel title="Chapbooks and readings">
          <Field
            label="Chapbook typeface"
            name="settings-chapbookFace"
            errors={errors.chapbookFace}
          >
            {(props) => (
              <select
                {...props}
                value={values.chapbookFace}
                onChange={(event) => set("chapbookFace", event.target.value as ChapbookFace)}
                className={inputClass}
              >
                {CHAPBOOK_FACES.map((face) => (
                  <option key={face} value={face}>
                    {CHAPBOOK_FACE_NAMES[face]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <label className="flex items-start gap-3 text-sm text-stone-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={values.stanzaNotesCarryReading}
              onChange={(event) => set("stanzaNotesCarryReading", event.target.checked)}
            />
            <span>
              <span className="font-medium">Send my voice with shared stanzas</span>
              <span className="block text-stone-600">
                A stanza shared on the fediverse carries its part of your reading. Servers such as
                Mastodon keep a copy of the whole recording.
              </span>
            </span>
          </label>
        </Panel>

        {form.formError && (
          <p role="alert" className="text-sm text-red-800">
            {form.formError}
          </p>
        )}
        <button type="submit" className={primaryButton} disabled={form.isSaving}>
          {form.isSaving ? "Saving..." : "Save settings"}
        </button>
      </form>
    </AdminPage>
  );
}

/**
 * One book slot's words on the Books page: its title, the label above it, its pull quote, what it
 * says while it has no book, and whether it is shown then at all.
 */
function BookSlotFields({
  index,
  title,
  words,
  titleErrors,
  errorsAt,
  onTitle,
  onWords,
}: {
  index: number;
  title: string;
  words: BookSlotWords | undefined;
  titleErrors: string[];
  errorsAt: (field: keyof BookSlotWords) => string[];
  onTitle: (title: string) => void;
  onWords: (words: BookSlotWords) => void;
}) {
  const original = ORIGINAL_BOOKS_PAGE.slots[index];
  if (!words || !original) return null;
  const name = `settings-booksPage-${index}`;
  const text = (field: "label" | "comingSoon", label: string, maxLength: number, hint: string) => (
    <Field label={label} name={`${name}-${field}`} errors={errorsAt(field)} hint={hint}>
      {(props) => (
        <input
          {...props}
          value={words[field]}
          maxLength={maxLength}
          onChange={(event) => onWords({ ...words, [field]: event.target.value })}
          className={inputClass}
        />
      )}
    </Field>
  );
  return (
    <fieldset className="space-y-3 rounded border border-stone-200 p-4">
      <legend className="px-1 text-sm font-medium text-stone-800">Slot {index + 1}</legend>
      <Field
        label={`Slot ${index + 1} title`}
        name={`settings-bookSlotTitles-${index}`}
        errors={titleErrors}
      >
        {(props) => (
          <input
            {...props}
            value={title}
            onChange={(event) => onTitle(event.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      {text("label", `Slot ${index + 1} label`, BOOK_LABEL_MAX_LENGTH, "The line above the title.")}
      <Field
        label={`Slot ${index + 1} pull quote`}
        name={`${name}-pullQuote`}
        errors={errorsAt("pullQuote")}
      >
        {(props) => (
          <textarea
            {...props}
            rows={2}
            maxLength={PULL_QUOTE_MAX_LENGTH}
            value={words.pullQuote}
            onChange={(event) => onWords({ ...words, pullQuote: event.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      {text(
        "comingSoon",
        `Slot ${index + 1} placeholder`,
        COMING_SOON_MAX_LENGTH,
        "What its cover and button say while it has no book.",
      )}
      <label className="flex items-center gap-2 text-sm text-stone-800">
        <input
          type="checkbox"
          checked={words.isHiddenWhenEmpty}
          onChange={(event) => onWords({ ...words, isHiddenWhenEmpty: event.target.checked })}
        />
        Hide slot {index + 1} while it has no book
      </label>
      <button
        type="button"
        className={secondaryButton}
        onClick={() => onWords({ ...original, isHiddenWhenEmpty: words.isHiddenWhenEmpty })}
      >
        Use slot {index + 1}'s original words
      </button>
    </fieldset>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-stone-300 bg-white p-5">
      <legend className="px-1 font-serif text-xl">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The portrait goes through the image upload flow; only an uploaded image is accepted. */
function Portrait({
  path,
  errors,
  onChange,
}: {
  path: string;
  errors?: string[];
  onChange: (path: string) => void;
}) {
  return (
    <div className="space-y-2 text-sm font-medium text-stone-800">
      <p>Portrait</p>
      {path ? (
        <img
          src={path}
          alt="The portrait as uploaded"
          width={96}
          height={120}
          className="h-30 w-24 rounded-lg object-cover"
        />
      ) : (
        <p className="font-normal text-stone-600">No portrait yet.</p>
      )}
      <div className="flex flex-wrap items-start gap-3">
        <FileUpload kind="images" onUploaded={(file) => onChange(file.path)} />
        {path && (
          <button type="button" className={secondaryButton} onClick={() => onChange("")}>
            Remove portrait
          </button>
        )}
      </div>
      {errors?.length ? (
        <p role="alert" className="font-normal text-red-800">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

function Links({
  links,
  errorsAt,
  listErrors,
  onChange,
}: {
  links: Array<{ label: string; url: string }>;
  errorsAt: (index: number) => string[];
  listErrors?: string[];
  onChange: (links: Array<{ label: string; url: string }>) => void;
}) {
  const update = (index: number, change: Partial<{ label: string; url: string }>) =>
    onChange(links.map((link, at) => (at === index ? { ...link, ...change } : link)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-stone-800">Links</legend>
      <p className="text-sm text-stone-600">
        Website, bookshop, Mastodon and other profiles, shown on the About page.
      </p>
      {links.map((link, index) => (
        // Links have no ids of their own; their position is who they are while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={index} className="grid gap-2 rounded border border-stone-200 p-3 sm:grid-cols-2">
          <Field label={`Link ${index + 1} label`} name={`link-${index}-label`}>
            {(props) => (
              <input
                {...props}
                value={link.label}
                maxLength={LINK_LABEL_MAX_LENGTH}
                onChange={(event) => update(index, { label: event.target.value })}
                className={inputClass}
              />
            )}
          </Field>
          <Field label={`Link ${index + 1} URL`} name={`link-${index}-url`}>
            {(props) => (
              <input
                {...props}
                type="url"
                value={link.url}
                onChange={(event) => update(index, { url: event.target.value })}
                className={inputClass}
              />
            )}
          </Field>
          {errorsAt(index).length > 0 && (
            <p role="alert" className="text-sm text-red-800 sm:col-span-2">
              {errorsAt(index)[0]}
            </p>
          )}
          <button
            type="button"
            className={`${secondaryButton} justify-self-start`}
            onClick={() => onChange(links.filter((_, at) => at !== index))}
          >
            Remove link {index + 1}
          </button>
        </div>
      ))}
      {listErrors?.length ? (
        <p role="alert" className="text-sm text-red-800">
          {listErrors[0]}
        </p>
      ) : null}
      {links.length < LINKS_MAX && (
        <button
          type="button"
          className={secondaryButton}
          onClick={() => onChange([...links, { label: "", url: "" }])}
        >
          Add link
        </button>
      )}
    </fieldset>
  );
}

/** A fixed number of tag choices, each one of the site's tags or the original name in its place. */
function TagSlots({
  legend,
  name,
  originals,
  tags,
  chosen,
  errors,
  onChange,
}: {
  legend: string;
  name: string;
  originals: readonly string[];
  tags: TagRef[];
  chosen: string[];
  errors: string[];
  onChange: (chosen: string[]) => void;
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset className="space-y-2" aria-describedby={errors.length ? errorId : undefined}>
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <p className="text-sm text-stone-600">
        Choose {originals.length} tags, or leave all on the originals.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {chosen.map((choice, index) => (
          <Field key={originals[index]} label={`${legend} ${index + 1}`} name={`${name}-${index}`}>
            {(props) => (
              <select
                {...props}
                value={choice}
                onChange={(event) =>
                  onChange(
                    chosen.map((existing, at) => (at === index ? event.target.value : existing)),
                  )
                }
                className={inputClass}
              >
                <option value="">Original: {originals[index]}</option>
                {tags.map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
      {errors.length > 0 && (
        <p id={errorId} role="alert" className="text-sm text-red-800">
          {errors[0]}
        </p>
      )}
    </fieldset>
  );
}
