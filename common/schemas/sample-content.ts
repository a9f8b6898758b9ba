import { z } from "zod/mini";

/**
 * The sample content a new site starts with, by what the poet would recognise (titles, texts,
 * names): listed before 'Remove the sample content' is confirmed, and what it removed after
 * (docs/decisions/058-sample-content.md). `keptTags` are sample tags the poet's own poems or
 * embers use: those stay.
 */
export const sampleContent = z.object({
  poems: z.array(z.string()),
  embers: z.array(z.string()),
  books: z.array(z.string()),
  tags: z.array(z.string()),
  guestVoices: z.array(z.string()),
  keptTags: z.array(z.string()),
});
export type SampleContent = z.output<typeof sampleContent>;

/** An admin's view of a tag before deleting it: how many poems and embers carry it. */
export const tagUsage = z.object({
  id: z.int(),
  name: z.string(),
  poems: z.int(),
  embers: z.int(),
});
export type TagUsage = z.output<typeof tagUsage>;
