import { useState } from "react";
import { slugFromTitle } from "../../../common/slug.ts";

/**
 * A form's text values where, for something new, the slug follows the title until the slug is
 * typed in (docs/product/admin.md, Poems); editing something that exists never rewrites its slug.
 */
export function useSluggedValues<Values extends { title: string; slug: string }>(
  initial: Values,
  isNew: boolean,
) {
  const [values, setValues] = useState(initial);
  const [isSlugEdited, setSlugEdited] = useState(!isNew);
  const set = (name: keyof Values & string, value: string) => {
    if (name === "slug") setSlugEdited(true);
    setValues((current) => ({
      ...current,
      [name]: value,
      ...(name === "title" && !isSlugEdited ? { slug: slugFromTitle(value) } : {}),
    }));
  };
  return { values, set };
}
