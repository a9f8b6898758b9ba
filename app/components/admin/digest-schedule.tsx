import { type FormEvent, useEffect, useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { DigestScheduleView } from "../../../common/schemas/digest.ts";
import { callApi } from "../../lib/api.ts";
import { inputClass, primaryButton } from "./ui.tsx";
import { useAdminForm } from "./use-admin-form.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/**
 * Automatic sending: the digest goes out by itself each week on a weekday and time of the site's
 * clock, once, with a default subject; a week with nothing new is skipped and listed as such.
 */
export function DigestSchedule() {
  const [schedule, setSchedule] = useState<DigestScheduleView>();
  const { errors, formError, isSaving, submit } = useAdminForm();

  useEffect(() => {
    callApi(endpoints.getDigestSchedule)
      .then(setSchedule)
      .catch((error) => console.warn("the digest schedule could not be loaded", error));
  }, []);

  if (!schedule) return null;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!schedule) return;
    const { enabled, weekday, time } = schedule;
    const saved = await submit(
      endpoints.setDigestSchedule,
      { body: { enabled, weekday, time } },
      { success: "Digest schedule saved", failure: "Failed to save the digest schedule" },
    );
    if (saved) setSchedule(saved);
  }

  const messages = [...Object.values(errors).flat(), ...(formError ? [formError] : [])];

  const nextSend = schedule.nextSendAt
    ? new Intl.DateTimeFormat("en-US", {
        timeZone: schedule.timezone,
        dateStyle: "full",
        timeStyle: "short",
      }).format(schedule.nextSendAt)
    : undefined;

  return (
    <form
      onSubmit={save}
      aria-label="Automatic sending"
      className="mt-6 rounded-lg border border-stone-300 bg-white p-5"
    >
      <h2 className="font-serif text-xl">Automatic sending</h2>
      <label className="mt-3 flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={schedule.enabled}
          onChange={(event) => setSchedule({ ...schedule, enabled: event.target.checked })}
          className="size-4 accent-ember-700"
        />
        Send the digest every week by itself
      </label>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="text-sm font-medium">
          Weekday
          <select
            value={schedule.weekday}
            onChange={(event) => setSchedule({ ...schedule, weekday: Number(event.target.value) })}
            aria-invalid={errors.weekday ? true : undefined}
            className={inputClass}
          >
            {WEEKDAYS.map((name, index) => (
              <option key={name} value={index}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium">
          Time ({schedule.timezone})
          <input
            type="time"
            value={schedule.time}
            onChange={(event) => setSchedule({ ...schedule, time: event.target.value })}
            aria-invalid={errors.time ? true : undefined}
            className={inputClass}
          />
        </label>
        <button type="submit" className={primaryButton} disabled={isSaving}>
          {isSaving ? "Saving..." : "Save schedule"}
        </button>
      </div>
      {messages.length > 0 && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {messages.join(" ")}
        </p>
      )}
      <p className="mt-3 text-sm text-stone-700" aria-live="polite">
        {nextSend
          ? `Next send: ${nextSend} (${schedule.timezone}), with the subject “the week of …”.`
          : "Automatic sending is off: the digest goes out only when you press Send."}
      </p>
    </form>
  );
}
