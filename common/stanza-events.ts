/**
 * Sent on window when the reader moves the stanza viewer (detail: the stanza's index), so a
 * reading that follows the viewer seeks there (app/lib/read-along.ts). Its own module, so the
 * viewer's page loads nothing else for it.
 */
export const STANZA_CHOSEN_EVENT = "ev:stanza-chosen";
