import { useState } from "react";
import { ADMIN_EMBERS_READ, ADMIN_SCHEDULE_DAYS } from "../../../common/constants.ts";
import { addDays, dateToDay, nextMonday, weekdayOf } from "../../../common/dates.ts";
import { endpoints } from "../../../common/endpoints.ts";
import type { ScheduledEmber } from "../../../common/schemas/admin.ts";
import { adminCall } from "./admin-call.ts";
import { TagChoices } from "./tag-choices.tsx";
import { Field, FormPanel, inputClass, primaryButton, secondaryButton } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";
import { useAdminList } from "./use-admin-list.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

type Editing = { ember?: ScheduledEmber; day: string };

/**
 * The week ahead from today in SITE_TIMEZONE: each day's ember with Edit, or 'No ember
 * scheduled' with Add; 'Add New Ember'; and below, every ember with Edit and Delete.
 */
export function EmbersTab({ today }: { today: string }) {
  // The schedule reads the next embers and matches them to the week's days by date.
  const {
    items: embers,
    isFailed,
    reload,
  } = useAdminList(endpoints.listEmberSchedule, { query: { limit: String(ADMIN_EMBERS_READ) } });
  const [editing, setEditing] = useState<Editing>();
  const all = useAdminList(endpoints.listAllEmbers);
  const reloadBoth = async () => {
    await Promise.all([reload(), all.reload()]);
  };
  const days = Array.from({ length: ADMIN_SCHEDULE_DAYS }, (_, offset) => addDays(today, offset));
  const emberOn = (day: string) => embers?.find((ember) => dateToDay(ember.date) === day);

  return (
    <section aria-label="Embers">
      {editing ? (
        <EmberForm
          {...editing}
          today={today}
          onDone={async (isSaved) => {
            setEditing(undefined);
            if (isSaved) await reloadBoth();
          }}
        />
      ) : (
        <button
          type="button"
          className={`${primaryButton} mb-6`}
          onClick={() => setEditing({ day: today })}
        >
          Add New Ember
        </button>
      )}
      {isFailed && <p role="alert">The embers could not be loaded.</p>}
      <ol className="divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {days.map((day, offset) => {
          const ember = emberOn(day);
          return (
            <li key={day} className="flex items-start gap-4 px-4 py-3">
              <div className="w-24 shrink-0">
                <p className="font-medium">{WEEKDAYS[weekdayOf(day)]}</p>
                <p className="font-serif text-2xl">{Number(day.slice(8))}</p>
                {offset < 2 && (
                  <span className="rounded bg-ember-100 px-2 py-0.5 text-xs text-ember-900">
                    {offset === 0 ? "Today" : "Tomorrow"}
                  </span>
                )}
              </div>
              <div className="min-w-0 flex-1">
                {ember ? (
                  <p className="break-words">
                    {ember.text}
                    {ember.isFeatured && (
                      <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                        Ember of the Week
                      </span>
                    )}
                  </p>
                ) : (
                  <p className="text-stone-600">No ember scheduled</p>
                )}
              </div>
              <button
                type="button"
                className={secondaryButton}
                onClick={() => setEditing({ ember, day })}
                aria-label={`${ember ? "Edit" : "Add"} ember for ${WEEKDAYS[weekdayOf(day)]} ${day}`}
              >
                {ember ? "Edit" : "Add"}
              </button>
            </li>
          );
        })}
      </ol>
      <AllEmbers
        embers={all.items}
        isFailed={all.isFailed}
        onEdit={(ember) => setEditing({ ember, day: dateToDay(ember.date) })}
        onDeleted={reloadBoth}
      />
    </section>
  );
}

/**
 * Every ember, the newest day first, each with Edit and Delete: the featured one and past ones
 * too, so the poet can clear any of them. A delete is asked once, as it cannot be undone.
 */
function AllEmbers({
  embers,
  isFailed,
  onEdit,
  onDeleted,
}: {
  embers: ScheduledEmber[] | undefined;
  isFailed: boolean;
  onEdit: (ember: ScheduledEmber) => void;
  onDeleted: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<number>();
  async function remove(ember: ScheduledEmber) {
    const result = await adminCall(
      endpoints.deleteEmber,
      { params: { id: ember.id } },
      { success: "Ember deleted successfully", failure: "Failed to delete ember" },
    );
    setConfirming(undefined);
    if (result.ok) await onDeleted();
  }
  return (
    <section aria-labelledby="all-embers" className="mt-8">
      <h3 id="all-embers" className="font-serif text-lg">
        All embers
      </h3>
      {isFailed && <p role="alert">The embers could not be loaded.</p>}
      {embers?.length === 0 && <p className="mt-2 text-sm text-stone-700">No embers yet.</p>}
      <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white">
        {embers?.map((ember) => {
          const day = dateToDay(ember.date);
          return (
            <li key={ember.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
              <div className="min-w-48 flex-1">
                <p className="text-sm text-stone-700">
                  {day}
                  {ember.isFeatured && (
                    <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                      Ember of the Week
                    </span>
                  )}
                </p>
                <p className="break-words">{ember.text}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => onEdit(ember)}
                  aria-label={`Edit ember of ${day}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setConfirming(ember.id)}
                  aria-label={`Delete ember of ${day}`}
                >
                  Delete
                </button>
              </div>
              {confirming === ember.id && (
                <div role="alert" className="w-full rounded bg-amber-50 p-3 text-sm">
                  <p>
                    Delete the ember of {day}
                    {ember.isFeatured ? ", the Ember of the Week" : ""}? This cannot be undone.
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={primaryButton}
                      onClick={() => void remove(ember)}
                    >
                      Delete ember
                    </button>
                    <button
                      type="button"
                      className={secondaryButton}
                      onClick={() => setConfirming(undefined)}
                    >
                      Keep it
                    </button>
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function EmberForm({
  ember,
  day,
  today,
  onDone,
}: Editing & { today: string; onDone: (isSaved: boolean) => void }) {
  const { items: tags } = useAdminList(endpoints.listTags);
  const [text, setText] = useState(ember?.text ?? "");
  const [date, setDate] = useState(ember ? dateToDay(ember.date) : day);
  const [tagIds, setTagIds] = useState<number[]>(ember?.tags.map((tag) => tag.id) ?? []);
  const [isFeatured, setFeatured] = useState(ember?.isFeatured ?? false);
  const form = useAdminForm();
  const errors = form.errors;
  const quickDates = [
    { label: "Today", day: today },
    { label: "Tomorrow", day: addDays(today, 1) },
    { label: "Next Week", day: addDays(today, 7) },
    { label: "Monday", day: nextMonday(today) },
  ];

  async function save() {
    const body = { text, date, tagIds, isFeatured };
    const messages = saveMessages("Ember", !ember);
    const isSaved = ember
      ? await form.submit(endpoints.updateEmber, { params: { id: ember.id }, body }, messages)
      : await form.submit(endpoints.createEmber, { body }, messages);
    if (isSaved) onDone(true);
  }

  return (
    <FormPanel
      title={ember ? "Edit Ember" : "New Ember"}
      onCancel={() => onDone(false)}
      onSubmit={save}
      isSaving={form.isSaving}
      formError={form.formError}
    >
      <Field label="Text" name="ember-text" errors={errors.text}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Date" name="ember-date" errors={errors.date}>
        {(props) => (
          <input
            {...props}
            type="date"
            value={date}
            onChange={(event) => setDate(event.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Quick dates</legend>
        {quickDates.map((quick) => (
          <button
            key={quick.label}
            type="button"
            className={secondaryButton}
            onClick={() => setDate(quick.day)}
          >
            {quick.label}
          </button>
        ))}
      </fieldset>
      <TagChoices tags={tags ?? []} chosen={tagIds} onChange={setTagIds} legend="Tags (optional)" />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={isFeatured}
          onChange={(event) => setFeatured(event.target.checked)}
        />
        Ember of the Week (featured on the home page)
      </label>
    </FormPanel>
  );
}
