/**
 * A modal on the native <dialog> element: the browser traps focus inside it, closes it on
 * Escape and returns focus to the control that opened it, so every dialog of the page is
 * keyboard operable without extra code. Mounting the component opens it; `onClose` runs when
 * the user dismisses it (Escape or a button that calls it).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { useUniqueId } from '../use-unique-id.js';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  /** Extra class, e.g. for the wide form dialogs. */
  class?: string;
}

export function Dialog({ title, onClose, children, class: extra }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useUniqueId('dialog');
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    dialog.showModal();
    const handleClose = (): void => closeRef.current();
    dialog.addEventListener('close', handleClose);
    return () => {
      // Unmounted by the parent (after a save): close first so focus goes back to the opener.
      dialog.removeEventListener('close', handleClose);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog ref={ref} class={extra ? `dialog ${extra}` : 'dialog'} aria-labelledby={titleId}>
      <h2 id={titleId} class="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
