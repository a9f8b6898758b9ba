import { Toaster as Sonner } from "sonner";
import { TOAST_REMOVE_DELAY_MS } from "../../common/constants.ts";

/** One toast at a time; each leaves after TOAST_REMOVE_DELAY_MS (SPEC.md §4, §9). */
export function Toaster() {
  return (
    <Sonner
      visibleToasts={1}
      duration={TOAST_REMOVE_DELAY_MS}
      position="bottom-center"
      closeButton
      toastOptions={{ classNames: { error: "!text-red-800" } }}
    />
  );
}
