import { useState } from "react";
import { ADMIN_BOOK_BLURB_LENGTH } from "../../../common/constants.ts";
import { endpoints } from "../../../common/endpoints.ts";
import type { Book, BookPage } from "../../../common/schemas/books.ts";
import { truncate } from "../../../common/stanza.ts";
import { ContentTab } from "./content-tab.tsx";
import { Field, FormPanel, inputClass, secondaryButton } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";
import { useSluggedValues } from "./use-slugged-values.ts";

/**
 * Books: title and the start of the blurb, with Edit and Delete (no confirmation,
 * docs/product/admin.md, Books; undone from the toast or Recently deleted).
 */
export function BooksTab() {
  return (
    <ContentTab
      entity="Book"
      list={endpoints.listBooks}
      remove={endpoints.deleteBook}
      recentlyDeleted={{ list: endpoints.listDeletedBooks, restore: endpoints.restoreBook }}
      describe={(book) => ({
        title: book.title,
        detail: truncate(book.blurb, ADMIN_BOOK_BLURB_LENGTH),
      })}
      renderForm={(book, onDone) => <BookForm book={book} onDone={onDone} />}
    />
  );
}

function BookForm({ book, onDone }: { book?: Book; onDone: (isSaved: boolean) => void }) {
  const { values, set } = useSluggedValues(
    {
      title: book?.title ?? "",
      slug: book?.slug ?? "",
      blurb: book?.blurb ?? "",
      coverUrl: book?.coverUrl ?? "",
      buyUrl: book?.buyUrl ?? "",
    },
    !book,
  );
  const [pages, setPages] = useState<BookPage[]>(book?.pages ?? []);
  const form = useAdminForm();
  const errors = form.errors;
  const setPage = (index: number, page: Partial<BookPage>) =>
    setPages((current) =>
      current.map((existing, at) => (at === index ? { ...existing, ...page } : existing)),
    );

  async function save() {
    const body = { ...values, pages };
    const messages = saveMessages("Book", !book);
    const isSaved = book
      ? await form.submit(endpoints.updateBook, { params: { id: book.id }, body }, messages)
      : await form.submit(endpoints.createBook, { body }, messages);
    if (isSaved) {
      onDone(true);
    }
  }

  const text = (name: keyof typeof values, label: string, type = "text") => (
    <Field label={label} name={`book-${name}`} errors={errors[name]}>
      {(props) => (
        <input
          {...props}
          type={type}
          value={values[name]}
          onChange={(event) => {
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
      isSaving={form.isSaving}
      formError={form.formError}
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
