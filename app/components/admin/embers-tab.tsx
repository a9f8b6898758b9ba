import { useState } from "react";
import { ADMIN_EMBERS_READ, ADMIN_SCHEDULE_DAYS } from "../../../common/constants.ts";
import { addDays, dateToDay, nextMonday, weekdayOf } from "../../../common/dates.ts";
import { endpoints } from "../../../common/endpoints.ts";
import type { ScheduledEmber } from "../../../common/schemas/admin.ts";
import { TagChoices } from "./tag-choices.tsx";
import { Field, FormPanel, inputClass, primaryButton, secondaryButton } from "./ui.tsx";
import { saveMessages, useAdminForm } from "./use-admin-form.ts";
import { useAdminList } from "./use-admin-list.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

type Editing = { ember?: ScheduledEmber; day: string };

/**
 * The week ahead from today in SITE_TIMEZONE: each day's ember with Edit, or 'No ember
 * scheduled' with Add; and 'Add New Ember'.
 */
export function EmbersTab({ today }: { today: string }) {
  // The schedule reads the next embers and matches them to the week's days by date.
  const {
    items: embers,
    isFailed,
    reload,
  } = useAdminList(endpoints.listEmberSchedule, { query: { limit: String(ADMIN_EMBERS_READ) } });
  const [editing, setEditing] = useState<Editing>();
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
            if (isSaved) await reload();
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
