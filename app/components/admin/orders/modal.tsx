import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { useReturnFocus } from "#app/lib/return-focus";
import { cn } from "#app/lib/utils";

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Wider for the order detail, narrow for confirmations. */
  size?: "sm" | "md" | "lg";
  role?: "dialog" | "alertdialog";
  /** What gets the focus back on close, when not simply what had it on open. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * The open modals, oldest first. Escape belongs to the one on top: with one dialog opened over
 * another (a refund over an order's View), Radix 1.2 can still hand the key to the one beneath,
 * which would close it and leave the top one open. A modal that is not on top keeps itself open
 * and closes the top one instead, so every stacked pair behaves the same.
 */
const openModals: Array<{ close: () => void }> = [];

function useTopmostEscape(open: boolean, onOpenChange: (open: boolean) => void) {
  const latest = useRef(onOpenChange);
  latest.current = onOpenChange;
  const self = useRef({ close: () => latest.current(false) });
  useEffect(() => {
    if (!open) return;
    const entry = self.current;
    openModals.push(entry);
    return () => {
      const at = openModals.indexOf(entry);
      if (at >= 0) openModals.splice(at, 1);
    };
  }, [open]);
  return (event: KeyboardEvent) => {
    const top = openModals.at(-1);
    if (!top || top === self.current) return;
    event.preventDefault();
    top.close();
  };
}

const WIDTH = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-4xl" } as const;

/**
 * The Orders tab's dialogs: Radix (focus trap, Escape, scroll lock, stacking for the refund
 * confirmation over the refund dialog) with a fixed header and footer around a scrolling body,
 * so long orders still fit a phone screen. Fades in with CSS @starting-style, no keyframes.
 * Opened from state, not from a Trigger: `useReturnFocus` gives the focus back to the opener.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = "md",
  role = "dialog",
  returnFocusTo,
}: ModalProps) {
  const returnFocus = useReturnFocus(returnFocusTo);
  const onEscapeKeyDown = useTopmostEscape(open, onOpenChange);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm transition-opacity duration-150 starting:opacity-0" />
        <Dialog.Content
          {...returnFocus}
          onEscapeKeyDown={onEscapeKeyDown}
          role={role}
          className={cn(
            "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] -translate-x-1/2 -translate-y-1/2 flex-col",
            "rounded-lg border border-border bg-card text-card-foreground shadow-2xl outline-none",
            "transition-[opacity,scale] duration-150 starting:scale-95 starting:opacity-0",
            WIDTH[size],
          )}
          // Without a description Radix warns unless told there is none.
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex items-start justify-between gap-4 border-b border-border px-5 pt-5 pb-4 sm:px-6">
            <div className="min-w-0">
              <Dialog.Title className="font-display text-3xl tracking-wide">{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-muted-foreground">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close
              className="-mt-2 -mr-3 flex size-11 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Close"
            >
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          {children ? <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 sm:px-6">{children}</div> : null}
          {footer ? (
            <div className="flex flex-col-reverse gap-2 border-t border-border px-5 py-4 sm:flex-row sm:justify-end sm:px-6">{footer}</div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
