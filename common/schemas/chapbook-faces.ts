/**
 * The serif faces a chapbook can be set in (docs/decisions/074-chapbook-cover-and-face.md), both
 * from @fontsource under the SIL Open Font License, chosen in the site settings.
 */
export const CHAPBOOK_FACES = ["eb-garamond", "libre-baskerville"] as const;
export type ChapbookFace = (typeof CHAPBOOK_FACES)[number];
/** Until the poet chooses. */
export const DEFAULT_CHAPBOOK_FACE: ChapbookFace = "eb-garamond";
export const CHAPBOOK_FACE_NAMES: Record<ChapbookFace, string> = {
  "eb-garamond": "EB Garamond",
  "libre-baskerville": "Libre Baskerville",
};
