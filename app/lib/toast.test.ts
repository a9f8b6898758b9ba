import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACTION_TOAST_REMOVE_DELAY_MS, TOAST_REMOVE_DELAY_MS } from "../../common/constants.ts";
import {
  currentToast,
  dismissToast,
  holdToast,
  notify,
  notifyError,
  releaseToast,
  subscribeToToasts,
} from "./toast.ts";

describe("toasts", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    const shown = currentToast();
    if (shown) dismissToast(shown.id);
    vi.useRealTimers();
  });

  it("shows one at a time: a new toast replaces the one shown", () => {
    const changes = vi.fn();
    const unsubscribe = subscribeToToasts(changes);
    notify("Echo added", "Your appreciation has been quietly shared.");
    notifyError("Error", "Failed to create poem");
    expect(currentToast()).toMatchObject({ title: "Error", tone: "error" });
    expect(changes).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it("removes a toast after the delay, counted from the latest one", () => {
    notify("Link copied");
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1000);
    notify("Image saved", "Stanza image has been downloaded");
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(currentToast()?.title).toBe("Image saved");
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
  });

  it("closes at once, and closing an older toast leaves the newer one", () => {
    notify("Saved to journal");
    const older = currentToast();
    notify("Removed from journal");
    if (older) dismissToast(older.id);
    expect(currentToast()?.title).toBe("Removed from journal");
    const shown = currentToast();
    if (shown) dismissToast(shown.id);
    expect(currentToast()).toBeNull();
  });

  it("carries an action, and keeps the toast while it is held, then gives it its full time", () => {
    const undo = vi.fn();
    notify("Success", "Poem deleted successfully", { label: "Undo", run: undo });
    const shown = currentToast();
    expect(shown?.action?.label).toBe("Undo");
    if (!shown) return;
    // An Undo stays at least 8 seconds, well past a plain toast's 3.
    expect(ACTION_TOAST_REMOVE_DELAY_MS).toBeGreaterThanOrEqual(8000);
    vi.advanceTimersByTime(ACTION_TOAST_REMOVE_DELAY_MS - 1);
    expect(currentToast()?.id).toBe(shown.id);
    holdToast(shown.id);
    vi.advanceTimersByTime(ACTION_TOAST_REMOVE_DELAY_MS * 10);
    expect(currentToast()?.id).toBe(shown.id);
    releaseToast(shown.id);
    vi.advanceTimersByTime(ACTION_TOAST_REMOVE_DELAY_MS - 1);
    expect(currentToast()?.id).toBe(shown.id);
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
  });
});
