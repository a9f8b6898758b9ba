import { useState } from "react";
import { slugFromTitle } from "../../../common/slug.ts";
import { truncate } from "../../../common/stanza.ts";
import { adminRequest } from "./admin-request.ts";
import { Field, FormPanel, inputClass, primaryButton, secondaryButton } from "./ui.tsx";
import { useAdminList } from "./use-admin-list.ts";

interface BookPage {
  title: string;
  content: string;
}

interface Book {
  id: number;
  title: string;
  slug: string;
  blurb: string;
  coverUrl: string;
  buyUrl: string;
  pages: BookPage[];
}

const BLURB_PREVIEW = 100;

/** Books: title and the start of the blurb, with Edit and Delete (no confirmation, SPEC.md §2). */
export function BooksTab() {
  const { items: books, isFailed, reload } = useAdminList<Book>("/api/books");
  const [editing, setEditing] = useState<Book | "new">();

  async function remove(book: Book) {
    const result = await adminRequest("DELETE", `/api/admin/books/${book.id}`, undefined, {
      success: "Book deleted successfully",
      failure: "Failed to delete book",
    });
    if (result.ok) await reload();
  }

  return (
    <section aria-label="Books">
      {editing ? (
        <BookForm
          book={editing === "new" ? undefined : editing}
          onDone={async (isSaved) => {
            setEditing(undefined);
            if (isSaved) await reload();
          }}
        />
      ) : (
        <button type="button" className={`${primaryButton} mb-6`} onClick={() => setEditing("new")}>
          Add New Book
        </button>
      )}
      {isFailed && <p role="alert">The books could not be loaded.</p>}
      <ul className="divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {books?.map((book) => (
          <li key={book.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-medium">{book.title}</p>
              <p className="text-sm text-stone-700">{truncate(book.blurb, BLURB_PREVIEW)}</p>
            </div>
            <div className="flex gap-2">
              <button
                type="button"
                className={secondaryButton}
                onClick={() => setEditing(book)}
                aria-label={`Edit ${book.title}`}
              >
                Edit
              </button>
              <button
                type="button"
                className={secondaryButton}
                onClick={() => remove(book)}
                aria-label={`Delete ${book.title}`}
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function BookForm({ book, onDone }: { book?: Book; onDone: (isSaved: boolean) => void }) {
  const [values, setValues] = useState({
    title: book?.title ?? "",
    slug: book?.slug ?? "",
    blurb: book?.blurb ?? "",
    coverUrl: book?.coverUrl ?? "",
    buyUrl: book?.buyUrl ?? "",
  });
  const [pages, setPages] = useState<BookPage[]>(book?.pages ?? []);
  const [isSlugEdited, setSlugEdited] = useState(Boolean(book));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const set = (name: keyof typeof values, value: string) =>
    setValues((current) => ({
      ...current,
      [name]: value,
      ...(name === "title" && !isSlugEdited ? { slug: slugFromTitle(value) } : {}),
    }));
  const setPage = (index: number, page: Partial<BookPage>) =>
    setPages((current) =>
      current.map((existing, at) => (at === index ? { ...existing, ...page } : existing)),
    );

  async function save() {
    setSaving(true);
    const result = await adminRequest(
      book ? "PUT" : "POST",
      book ? `/api/admin/books/${book.id}` : "/api/admin/books",
      { ...values, pages },
      book
        ? { success: "Book updated successfully", failure: "Failed to update book" }
        : { success: "Book created successfully", failure: "Failed to create book" },
    );
    setSaving(false);
    if (result.ok) return onDone(true);
    setErrors(result.fieldErrors);
    setFormError(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
  }

  const text = (name: keyof typeof values, label: string, type = "text") => (
    <Field label={label} name={`book-${name}`} errors={errors[name]}>
      {(props) => (
        <input
          {...props}
          type={type}
          value={values[name]}
          onChange={(event) => {
            if (name === "slug") setSlugEdited(true);
            set(name, event.target.value);
          }}
          className={inputClass}
        />
      )}
    </Field>
  );

  return (
    <FormPanel
      title={book ? "Edit Book" : "New Book"}
      onCancel={() => onDone(false)}
      onSubmit={save}
      isSaving={isSaving}
      formError={formError}
    >
      {text("title", "Title")}
      {text("slug", "Slug")}
      <Field label="Blurb" name="book-blurb" errors={errors.blurb}>
        {(props) => (
          <textarea
            {...props}
            rows={4}
            value={values.blurb}
            onChange={(event) => set("blurb", event.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      {text("coverUrl", "Cover URL", "url")}
      {text("buyUrl", "Buy URL", "url")}
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-stone-800">Pages</legend>
        {pages.map((page, index) => (
          // Pages have no ids of their own; their position is who they are while editing.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className="space-y-2 rounded border border-stone-200 p-3">
            <Field
              label={`Page ${index + 1} title`}
              name={`page-${index}-title`}
              errors={errors[`pages.${index}.title`]}
            >
              {(props) => (
                <input
                  {...props}
                  value={page.title}
                  onChange={(event) => setPage(index, { title: event.target.value })}
                  className={inputClass}
                />
              )}
            </Field>
            <Field
              label={`Page ${index + 1} content`}
              name={`page-${index}-content`}
              errors={errors[`pages.${index}.content`]}
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={4}
                  value={page.content}
                  onChange={(event) => setPage(index, { content: event.target.value })}
                  className={inputClass}
                />
              )}
            </Field>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => setPages((current) => current.filter((_, at) => at !== index))}
            >
              Remove page {index + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          className={secondaryButton}
          onClick={() => setPages((current) => [...current, { title: "", content: "" }])}
        >
          Add Page
        </button>
      </fieldset>
    </FormPanel>
  );
}
