import { type ReactNode, useId, useLayoutEffect, useRef } from "react";

interface ModalDialogProps {
  title: ReactNode;
  description: ReactNode;
  /** Escape, a click on the backdrop, or the caller's own close controls. */
  onClose: () => void;
  /** Classes of the panel; the backdrop covers the rest of the viewport. */
  panelClassName: string;
  titleClassName: string;
  descriptionClassName: string;
  backdropClassName: string;
  backdropTestId?: string;
  /** Shown beside the title (the menu's close button). */
  headerAction?: ReactNode;
  children: ReactNode;
}

/**
 * A modal on the browser's own <dialog>: showModal() makes the rest of the page inert and keeps
 * focus inside, Escape closes it, and focus returns to what opened it, with no dialog library
 * in every reader's download. Render it only while open; closing unmounts it.
 */
export function ModalDialog({
  title,
  description,
  onClose,
  panelClassName,
  titleClassName,
  descriptionClassName,
  backdropClassName,
  backdropTestId,
  headerAction,
  children,
}: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  // A layout effect: its cleanup runs while the dialog is still in the page, so close() can
  // hand focus back before React removes it.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { overflow } = document.body.style;
    document.body.style.overflow = "hidden";
    dialog.showModal();
    return () => {
      dialog.close();
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onCancel={(event) => {
        // Escape: React state closes the dialog, so there is one way it closes.
        event.preventDefault();
        onClose();
      }}
      className="fixed inset-0 m-0 h-full max-h-none w-full max-w-none bg-transparent p-0 backdrop:bg-transparent"
    >
      <div
        data-testid={backdropTestId}
        aria-hidden="true"
        onClick={onClose}
        className={`fixed inset-0 ${backdropClassName}`}
      />
      <div className={panelClassName}>
        <div className="flex items-center justify-between gap-4">
          <h2 id={titleId} className={titleClassName}>
            {title}
          </h2>
          {headerAction}
        </div>
        <p id={descriptionId} className={descriptionClassName}>
          {description}
        </p>
        {children}
      </div>
    </dialog>
  );
}
