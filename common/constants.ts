/**
 * Business constants and limits (docs/product/limits.md), named once and imported wherever they
 * apply.
 */

export const WHISPER_MAX_LENGTH = 280;
export const WHISPER_WARN_REMAINING = 20;
export const SUBSCRIPTION_EMAIL_MAX_LENGTH = 255;
export const CONTRIBUTION_BIO_MAX_LENGTH = 160;
export const TAG_NAME_MAX_LENGTH = 50;
export const UPLOAD_MAX_BYTES = 5_242_880;
/** A poem read aloud (decision 018): 25 MB holds a long reading even as WAV at speech quality. */
export const AUDIO_UPLOAD_MAX_BYTES = 26_214_400;
export const LOCAL_JOURNAL_MAX_ENTRIES = 200;
export const LOCAL_JOURNAL_STORAGE_KEY = "emberJournal";
export const JOURNAL_AUTO_SYNC_DELAY_MS = 1000;
export const EXPIRED_SESSION_REDIRECT_MS = 1000;
export const ADMIN_LOGGED_OUT_REDIRECT_MS = 500;
export const POEM_CARD_PREVIEW_LENGTH = 120;
export const POEM_CARD_TAGS_SHOWN = 2;
export const THEME_CARD_LINES = 2;
export const THEME_CARD_TAGS = 3;
export const HOME_GUEST_VOICES = 3;
export const EMBERS_PAGE_SIZE = 10;
/** /poetry renders this many cards and loads the rest on request, a page at a time. */
export const POETRY_PAGE_SIZE = 24;
export const POEMS_MAX_LIMIT = 100;
export const EMBERS_MAX_LIMIT = 50;
export const ADMIN_SCHEDULE_DAYS = 7;
export const ADMIN_EMBERS_READ = 30;
export const ADMIN_BOOK_BLURB_LENGTH = 100;
export const POEM_DESCRIPTION_LENGTH = 100;
export const EMBER_DESCRIPTION_LENGTH = 120;
export const SWIPE_THRESHOLD_PX = 50;
export const SMALL_SCREEN_MAX_PX = 768;
export const STANZA_IMAGE = { width: 600, height: 400, scale: 2 } as const;
export const CURRENT_USER_CACHE_MS = 300_000;
export const TOAST_REMOVE_DELAY_MS = 3000;
/** A toast with an action (a delete's Undo) stays long enough to reach it (docs/product/admin.md). */
export const ACTION_TOAST_REMOVE_DELAY_MS = 8000;
export const UPLOAD_SUCCESS_RESET_MS = 2000;
export const UPLOAD_ERROR_RESET_MS = 3000;
export const POETRY_PILLARS = ["Becoming", "Belonging", "Fatherhood", "Pilgrimage"] as const;
export const HOME_THEMES = ["Belonging", "Becoming", "Sacred"] as const;
export const COPYRIGHT_YEAR = 2025;
/**
 * Stanza lines are stored joined by this marker and shown as line breaks
 * (docs/product/reading.md, Stanza viewer).
 */
export const STANZA_LINE_MARKER = " / ";
/** Search (decision 020): the longest query read, and how many results each group shows. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_RESULTS_PER_GROUP = 10;
export const SEARCH_MAX_LIMIT = 50;
/** A reader's display name on /account, in characters as the reader sees them. */
export const DISPLAY_NAME_MAX_LENGTH = 60;
