import { z } from "zod/mini";
import { ECHO_COUNTS_PATH } from "./echo-counts.ts";
import { SIGN_IN_LINK_PATH } from "./mounts.ts";
import {
  accountExport,
  accountInput,
  currentUser,
  readerAccount,
  signInLinkRequest,
} from "./schemas/account.ts";
import {
  bookInput,
  emberInput,
  emberScheduleQuery,
  fediverseReactions,
  moderatedWhisper,
  moveWhisperInput,
  poemInput,
  scheduledEmber,
  tagInput,
} from "./schemas/admin.ts";
import { messageAnswer, noContent } from "./schemas/answer.ts";
import { audioUploadUrlInput } from "./schemas/audio.ts";
import { book } from "./schemas/books.ts";
import { chapbook, chapbookInput } from "./schemas/chapbooks.ts";
import {
  digestContentInput,
  digestPreview,
  digestRecipients,
  digestRun,
  digestScheduleAnswer,
  digestScheduleInput,
  digestSendInput,
} from "./schemas/digest.ts";
import { archivedEmbers, emberPageQuery, featuredEmber, todaysEmber } from "./schemas/embers.ts";
import {
  fediverseBlock,
  fediverseBlockInput,
  fediverseFollowers,
  fediverseFollowersQuery,
} from "./schemas/fediverse.ts";
import { poemDeliveryState } from "./schemas/fediverse-delivery.ts";
import { guestSubmission, guestSubmissionInput } from "./schemas/guest-submission.ts";
import {
  GUEST_VOICE_MESSAGES,
  guestVoice,
  guestVoiceInput,
  guestVoiceUpdate,
} from "./schemas/guest-voices.ts";
import { healthReport } from "./schemas/health.ts";
import {
  uploadUrlAnswer,
  uploadUrlInput,
  validateImageUrlInput,
  validImageUrl,
} from "./schemas/images.ts";
import {
  importConfirmInput,
  importJob,
  importPreview,
  importPreviewQuery,
  importRedirect,
} from "./schemas/import.ts";
import { idInText } from "./schemas/input.ts";
import { insightsQuery, insightsSummary, poemInsights } from "./schemas/insights.ts";
import {
  echoCounts,
  echoInput,
  journalEntries,
  journalInput,
  savedStanzas,
  sharedWhisper,
  stanzaIndexInput,
  toggleAnswer,
  whisper,
  whisperInput,
} from "./schemas/interactions.ts";
import { adminPoem, poem, poemListQuery, poemVersion, tagRef, theme } from "./schemas/poems.ts";
import { deletedItem } from "./schemas/recently-deleted.ts";
import { sampleContent, tagUsage } from "./schemas/sample-content.ts";
import { searchAnswer, searchInput } from "./schemas/search.ts";
import { siteSettings, siteSettingsInput } from "./schemas/settings.ts";
import { subscribeAnswer, subscribeInput } from "./schemas/subscription.ts";

/**
 * One /api call: its method and path (as the server routes it, `:name` for a path parameter),
 * the schemas of its path parameters (where they need checking), JSON body and query, the schema
 * of its answer and the status of success. The server registers its route from this description
 * and reads its input and sends its answer with these schemas (server/http/routes.ts), and the
 * client calls it with them (app/lib/api.ts): one shape, declared once (decision 019, 036).
 */
export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: `/api/${string}`;
  params?: z.ZodMiniType;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  answer: z.ZodMiniType;
  status?: 201 | 204;
}

const endpoint = <const E extends Endpoint>(described: E) => described;
/**
 * The body the admin's approve, hide, review and resume calls send (docs/product/api.md): `{}`,
 * which the server does not read, so a call without it is answered the same.
 */
export const unreadBody = z.object({});
/** A poem's or a theme's slug in a path: what a slug column can hold. */
const slugParams = z.object({ slug: z.string().check(z.minLength(1), z.maxLength(200)) });
/** The id of an admin call's row; any other text is that row not found. */
const idParams = (entity: string) => z.object({ id: idInText(`${entity} not found`) });
const poemIdParams = idParams("Poem");
/** A reader's id is better-auth's UUID. */
const readerIdParams = z.object({
  userId: z
    .string()
    .check(z.regex(/^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i, "Reader not found")),
});

/**
 * Every JSON call under /api (docs/product/api.md). Form posts, redirects and files (sign-in
 * links, unsubscribe, the subscriber CSV) are not JSON calls: they are declared in
 * common/other-routes.ts.
 */
export const endpoints = {
  health: endpoint({ method: "GET", path: "/api/health", answer: healthReport }),
  currentUser: endpoint({ method: "GET", path: "/api/auth/user", answer: currentUser }),
  requestSignInLink: endpoint({
    method: "POST",
    path: SIGN_IN_LINK_PATH,
    body: signInLinkRequest,
    answer: messageAnswer,
  }),
  subscribe: endpoint({
    method: "POST",
    path: "/api/subscribe",
    body: subscribeInput,
    answer: subscribeAnswer,
  }),

  listPoems: endpoint({
    method: "GET",
    path: "/api/poems",
    query: poemListQuery,
    answer: z.array(poem),
  }),
  getPoem: endpoint({
    method: "GET",
    path: "/api/poems/:slug",
    params: slugParams,
    answer: poem,
  }),
  listTags: endpoint({ method: "GET", path: "/api/tags", answer: z.array(tagRef) }),
  getTheme: endpoint({
    method: "GET",
    path: "/api/themes/:slug",
    params: slugParams,
    answer: theme,
  }),
  getFeaturedEmber: endpoint({
    method: "GET",
    path: "/api/embers/featured",
    answer: featuredEmber,
  }),
  getTodaysEmber: endpoint({ method: "GET", path: "/api/ember/today", answer: todaysEmber }),
  listEmbers: endpoint({
    method: "GET",
    path: "/api/embers",
    query: emberPageQuery,
    answer: archivedEmbers,
  }),
  listBooks: endpoint({ method: "GET", path: "/api/books", answer: z.array(book) }),
  getBook: endpoint({ method: "GET", path: "/api/books/:slug", answer: book }),
  submitGuestPoem: endpoint({
    method: "POST",
    path: "/api/guest-submission",
    body: guestSubmissionInput,
    answer: messageAnswer,
    status: 201,
  }),

  toggleEcho: endpoint({
    method: "POST",
    path: "/api/poems/:slug/echo",
    body: echoInput,
    answer: toggleAnswer,
  }),
  listEchoCounts: endpoint({ method: "GET", path: ECHO_COUNTS_PATH, answer: echoCounts }),
  createWhisper: endpoint({
    method: "POST",
    path: "/api/poems/:slug/whispers",
    body: whisperInput,
    answer: sharedWhisper,
    status: 201,
  }),
  listWhispers: endpoint({
    method: "GET",
    path: "/api/poems/:slug/whispers/:stanzaIndex",
    params: z.object({ slug: z.string(), stanzaIndex: stanzaIndexInput }),
    answer: z.array(whisper),
  }),
  deleteWhisper: endpoint({
    method: "DELETE",
    path: "/api/whispers/:id",
    params: idParams("Whisper"),
    answer: noContent,
    status: 204,
  }),
  toggleJournalEntry: endpoint({
    method: "POST",
    path: "/api/journal",
    body: journalInput,
    answer: toggleAnswer,
  }),
  addJournalEntry: endpoint({
    method: "PUT",
    path: "/api/journal",
    body: journalInput,
    answer: toggleAnswer,
  }),
  search: endpoint({
    method: "GET",
    path: "/api/search",
    query: searchInput,
    answer: searchAnswer,
  }),
  listJournal: endpoint({ method: "GET", path: "/api/journal", answer: journalEntries }),
  getAccount: endpoint({ method: "GET", path: "/api/account", answer: readerAccount }),
  updateAccount: endpoint({
    method: "PUT",
    path: "/api/account",
    body: accountInput,
    answer: readerAccount,
  }),
  exportAccount: endpoint({ method: "GET", path: "/api/account/export", answer: accountExport }),
  deleteAccount: endpoint({
    method: "DELETE",
    path: "/api/account",
    answer: noContent,
    status: 204,
  }),
  signOutEverywhere: endpoint({
    method: "POST",
    path: "/api/account/sign-out-everywhere",
    body: unreadBody,
    answer: messageAnswer,
  }),
  createAvatarUploadUrl: endpoint({
    method: "POST",
    path: "/api/account/avatar/upload-url",
    body: uploadUrlInput,
    answer: uploadUrlAnswer,
  }),
  listSavedStanzas: endpoint({
    method: "GET",
    path: "/api/poems/:slug/journal",
    answer: savedStanzas,
  }),

  listAdminPoems: endpoint({
    method: "GET",
    path: "/api/admin/poems",
    answer: z.array(adminPoem),
  }),
  createPoem: endpoint({
    method: "POST",
    path: "/api/admin/poems",
    body: poemInput,
    answer: adminPoem,
    status: 201,
  }),
  updatePoem: endpoint({
    method: "PUT",
    path: "/api/admin/poems/:id",
    params: poemIdParams,
    body: poemInput,
    answer: adminPoem,
  }),
  listPoemVersions: endpoint({
    method: "GET",
    path: "/api/admin/poems/:id/versions",
    params: poemIdParams,
    answer: z.array(poemVersion),
  }),
  restorePoemVersion: endpoint({
    method: "POST",
    path: "/api/admin/poems/:id/versions/:versionId/restore",
    params: z.object({
      id: idInText("Poem not found"),
      versionId: idInText("Version not found"),
    }),
    body: unreadBody,
    answer: adminPoem,
  }),
  deletePoem: endpoint({
    method: "DELETE",
    path: "/api/admin/poems/:id",
    params: poemIdParams,
    answer: noContent,
    status: 204,
  }),
  listDeletedPoems: endpoint({
    method: "GET",
    path: "/api/admin/poems/deleted",
    answer: z.array(deletedItem),
  }),
  /** One poem as the editor opens it, with its stanza timings (docs/product/chapbook.md). */
  getAdminPoem: endpoint({
    method: "GET",
    path: "/api/admin/poems/:id",
    params: poemIdParams,
    answer: adminPoem,
  }),
  restorePoem: endpoint({
    method: "POST",
    path: "/api/admin/poems/:id/restore",
    params: poemIdParams,
    body: unreadBody,
    answer: messageAnswer,
  }),
  listEmberSchedule: endpoint({
    method: "GET",
    path: "/api/admin/embers",
    query: emberScheduleQuery,
    answer: z.array(scheduledEmber),
  }),
  createEmber: endpoint({
    method: "POST",
    path: "/api/admin/embers",
    body: emberInput,
    answer: scheduledEmber,
    status: 201,
  }),
  updateEmber: endpoint({
    method: "PUT",
    path: "/api/admin/embers/:id",
    params: idParams("Ember"),
    body: emberInput,
    answer: scheduledEmber,
  }),
  deleteEmber: endpoint({
    method: "DELETE",
    path: "/api/admin/embers/:id",
    params: idParams("Ember"),
    answer: noContent,
    status: 204,
  }),
  createBook: endpoint({
    method: "POST",
    path: "/api/admin/books",
    body: bookInput,
    answer: book,
    status: 201,
  }),
  updateBook: endpoint({
    method: "PUT",
    path: "/api/admin/books/:id",
    params: idParams("Book"),
    body: bookInput,
    answer: book,
  }),
  deleteBook: endpoint({
    method: "DELETE",
    path: "/api/admin/books/:id",
    params: idParams("Book"),
    answer: noContent,
    status: 204,
  }),
  listDeletedBooks: endpoint({
    method: "GET",
    path: "/api/admin/books/deleted",
    answer: z.array(deletedItem),
  }),
  restoreBook: endpoint({
    method: "POST",
    path: "/api/admin/books/:id/restore",
    params: idParams("Book"),
    body: unreadBody,
    answer: messageAnswer,
  }),
  createTag: endpoint({
    method: "POST",
    path: "/api/admin/tags",
    body: tagInput,
    answer: tagRef,
    status: 201,
  }),
  updateTag: endpoint({
    method: "PUT",
    path: "/api/admin/tags/:id",
    params: idParams("Tag"),
    body: tagInput,
    answer: tagRef,
  }),
  deleteTag: endpoint({
    method: "DELETE",
    path: "/api/admin/tags/:id",
    params: idParams("Tag"),
    answer: noContent,
    status: 204,
  }),
  listModeratedWhispers: endpoint({
    method: "GET",
    path: "/api/admin/whispers",
    answer: z.array(moderatedWhisper),
  }),
  approveWhisper: endpoint({
    method: "POST",
    path: "/api/admin/whispers/:id/approve",
    params: idParams("Whisper"),
    body: unreadBody,
    answer: messageAnswer,
  }),
  hideWhisper: endpoint({
    method: "POST",
    path: "/api/admin/whispers/:id/hide",
    params: idParams("Whisper"),
    body: unreadBody,
    answer: messageAnswer,
  }),
  moveWhisper: endpoint({
    method: "POST",
    path: "/api/admin/whispers/:id/move",
    params: idParams("Whisper"),
    body: moveWhisperInput,
    answer: messageAnswer,
  }),
  listFediverseReactions: endpoint({
    method: "GET",
    path: "/api/admin/fediverse/reactions",
    answer: fediverseReactions,
  }),
  listFediverseFollowers: endpoint({
    method: "GET",
    path: "/api/admin/fediverse/followers",
    query: fediverseFollowersQuery,
    answer: fediverseFollowers,
  }),
  listFediverseBlocks: endpoint({
    method: "GET",
    path: "/api/admin/fediverse/blocks",
    answer: z.array(fediverseBlock),
  }),
  addFediverseBlock: endpoint({
    method: "POST",
    path: "/api/admin/fediverse/blocks",
    body: fediverseBlockInput,
    answer: fediverseBlock,
    status: 201,
  }),
  removeFediverseBlock: endpoint({
    method: "DELETE",
    path: "/api/admin/fediverse/blocks/:id",
    params: idParams("Block"),
    answer: noContent,
    status: 204,
  }),
  blockReader: endpoint({
    method: "POST",
    path: "/api/admin/readers/:userId/block",
    params: readerIdParams,
    body: unreadBody,
    answer: messageAnswer,
  }),
  unblockReader: endpoint({
    method: "POST",
    path: "/api/admin/readers/:userId/unblock",
    params: readerIdParams,
    body: unreadBody,
    answer: messageAnswer,
  }),
  listGuestSubmissions: endpoint({
    method: "GET",
    path: "/api/admin/submissions",
    answer: z.array(guestSubmission),
  }),
  markSubmissionReviewed: endpoint({
    method: "POST",
    path: "/api/admin/submissions/:id/review",
    params: idParams("Submission"),
    body: unreadBody,
    answer: messageAnswer,
  }),
  deleteGuestSubmission: endpoint({
    method: "DELETE",
    path: "/api/admin/submissions/:id",
    params: idParams("Submission"),
    answer: noContent,
    status: 204,
  }),
  publishGuestSubmission: endpoint({
    method: "POST",
    path: "/api/admin/submissions/:id/publish",
    params: idParams("Submission"),
    // An empty body: the submission is published as it was sent, and edited afterwards.
    body: unreadBody,
    answer: guestVoice,
    status: 201,
  }),
  listGuestVoices: endpoint({
    method: "GET",
    path: "/api/admin/guest-voices",
    answer: z.array(guestVoice),
  }),
  createGuestVoice: endpoint({
    method: "POST",
    path: "/api/admin/guest-voices",
    body: guestVoiceInput,
    answer: guestVoice,
    status: 201,
  }),
  updateGuestVoice: endpoint({
    method: "PUT",
    path: "/api/admin/guest-voices/:id",
    params: z.object({ id: idInText(GUEST_VOICE_MESSAGES.notFound) }),
    body: guestVoiceUpdate,
    answer: guestVoice,
  }),
  createUploadUrl: endpoint({
    method: "POST",
    path: "/api/admin/images/upload-url",
    body: uploadUrlInput,
    answer: uploadUrlAnswer,
  }),
  createAudioUploadUrl: endpoint({
    method: "POST",
    path: "/api/admin/audio/upload-url",
    body: audioUploadUrlInput,
    answer: uploadUrlAnswer,
  }),
  validateImageUrl: endpoint({
    method: "POST",
    path: "/api/admin/images/validate-url",
    body: validateImageUrlInput,
    answer: validImageUrl,
  }),

  listSampleContent: endpoint({
    method: "GET",
    path: "/api/admin/sample-content",
    answer: sampleContent,
  }),
  removeSampleContent: endpoint({
    method: "DELETE",
    path: "/api/admin/sample-content",
    answer: sampleContent,
  }),
  listTagUsage: endpoint({
    method: "GET",
    path: "/api/admin/tags/usage",
    answer: z.array(tagUsage),
  }),
  listAllEmbers: endpoint({
    method: "GET",
    path: "/api/admin/embers/all",
    answer: z.array(scheduledEmber),
  }),
  getSiteSettings: endpoint({
    method: "GET",
    path: "/api/admin/settings",
    answer: siteSettings,
  }),
  updateSiteSettings: endpoint({
    method: "PUT",
    path: "/api/admin/settings",
    body: siteSettingsInput,
    answer: siteSettings,
  }),

  getInsights: endpoint({
    method: "GET",
    path: "/api/admin/insights",
    query: insightsQuery,
    answer: insightsSummary,
  }),
  getPoemInsights: endpoint({
    method: "GET",
    path: "/api/admin/insights/poems/:slug",
    params: slugParams,
    query: insightsQuery,
    answer: poemInsights,
  }),

  getDigestContent: endpoint({
    method: "GET",
    path: "/api/admin/digest/content",
    answer: digestContentInput,
  }),
  previewDigest: endpoint({
    method: "POST",
    path: "/api/admin/digest/preview",
    body: digestContentInput,
    answer: digestPreview,
  }),
  sendDigest: endpoint({
    method: "POST",
    path: "/api/admin/digest/send",
    body: digestSendInput,
    answer: digestRun,
    status: 201,
  }),
  listDigestRuns: endpoint({
    method: "GET",
    path: "/api/admin/digest/runs",
    answer: z.array(digestRun),
  }),
  /** What followers on the fediverse were sent of each poem (docs/product/fediverse-delivery.md). */
  fediverseDeliveries: endpoint({
    method: "GET",
    path: "/api/admin/fediverse/deliveries",
    answer: z.array(poemDeliveryState),
  }),
  countDigestRecipients: endpoint({
    method: "GET",
    path: "/api/admin/digest/recipients",
    answer: digestRecipients,
  }),
  getDigestSchedule: endpoint({
    method: "GET",
    path: "/api/admin/digest/schedule",
    answer: digestScheduleAnswer,
  }),
  setDigestSchedule: endpoint({
    method: "PUT",
    path: "/api/admin/digest/schedule",
    body: digestScheduleInput,
    answer: digestScheduleAnswer,
  }),
  resumeDigestRun: endpoint({
    method: "POST",
    path: "/api/admin/digest/runs/:id/resume",
    params: idParams("Digest run"),
    body: unreadBody,
    answer: digestRun,
  }),

  /**
   * The poet's import (docs/product/import.md). The preview's body is the export file itself
   * (up to IMPORT_MAX_BYTES, past the API's JSON limit), so it is registered with `.route`; it
   * stores only the job, with what the file holds, until the confirmation.
   */
  previewImport: endpoint({
    method: "POST",
    path: "/api/admin/import/preview",
    query: importPreviewQuery,
    answer: importPreview,
    status: 201,
  }),
  confirmImport: endpoint({
    method: "POST",
    path: "/api/admin/import/jobs/:id/confirm",
    params: idParams("Import"),
    body: importConfirmInput,
    answer: importJob,
  }),
  getImportJob: endpoint({
    method: "GET",
    path: "/api/admin/import/jobs/:id",
    params: idParams("Import"),
    answer: importJob,
  }),
  listImportJobs: endpoint({
    method: "GET",
    path: "/api/admin/import/jobs",
    answer: z.array(importJob),
  }),
  listImportRedirects: endpoint({
    method: "GET",
    path: "/api/admin/import/redirects",
    answer: z.array(importRedirect),
  }),
  /**
   * The poet's chapbooks (docs/product/chapbook.md): each answer carries its build's state; the
   * files themselves are downloads (common/other-routes.ts).
   */
  listChapbooks: endpoint({
    method: "GET",
    path: "/api/admin/chapbooks",
    answer: z.array(chapbook),
  }),
  createChapbook: endpoint({
    method: "POST",
    path: "/api/admin/chapbooks",
    body: chapbookInput,
    answer: chapbook,
    status: 201,
  }),
  getChapbook: endpoint({
    method: "GET",
    path: "/api/admin/chapbooks/:id",
    params: idParams("Chapbook"),
    answer: chapbook,
  }),
  updateChapbook: endpoint({
    method: "PUT",
    path: "/api/admin/chapbooks/:id",
    params: idParams("Chapbook"),
    body: chapbookInput,
    answer: chapbook,
  }),
  deleteChapbook: endpoint({
    method: "DELETE",
    path: "/api/admin/chapbooks/:id",
    params: idParams("Chapbook"),
    answer: noContent,
    status: 204,
  }),
  deleteImportRedirect: endpoint({
    method: "DELETE",
    path: "/api/admin/import/redirects/:id",
    params: idParams("Redirect"),
    answer: noContent,
    status: 204,
  }),
} as const;
