import type { TagRef } from "../../../common/schemas/poems.ts";

/** Tag checkboxes, shared by the poem and ember forms. */
export function TagChoices({
  tags,
  chosen,
  onChange,
  legend,
  errors,
}: {
  tags: TagRef[];
  chosen: number[];
  onChange: (tagIds: number[]) => void;
  legend: string;
  errors?: string[];
}) {
  return (
    <fieldset aria-describedby={errors?.length ? "tag-choices-error" : undefined}>
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {tags.map((tag) => (
          <label
            key={tag.id}
            className="flex items-center gap-1.5 rounded-full border border-stone-300 px-3 py-1 text-sm"
          >
            <input
              type="checkbox"
              checked={chosen.includes(tag.id)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, tag.id]
                    : chosen.filter((tagId) => tagId !== tag.id),
                )
              }
            />
            {tag.name}
          </label>
        ))}
      </div>
      {errors?.length ? (
        <p id="tag-choices-error" role="alert" className="mt-1 text-sm text-red-800">
          {errors[0]}
        </p>
      ) : null}
    </fieldset>
  );
}
