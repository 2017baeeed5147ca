import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { buttonVariants } from "./ui/button";
import { cn } from "#app/lib/utils";

export interface TextDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it: it gets the focus back on close (it is not a Radix trigger). */
  trigger: RefObject<HTMLButtonElement>;
  title: string;
  description: ReactNode;
  descriptionClassName?: string;
  closeLabel: string;
  children: ReactNode;
}

/**
 * A page of text in a Radix dialog (focus trap, Escape, Close): the sign-up card's Terms &
 * Conditions and the checkout's Purchase Disclaimer. Loaded on demand by `LazyTextDialog`.
 */
export default function TextDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  descriptionClassName,
  closeLabel,
  children,
}: TextDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="terms-overlay fixed inset-0 z-50 bg-black/80 backdrop-blur-sm" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            trigger.current?.focus();
          }}
          className="terms-content fixed top-1/2 left-1/2 z-50 flex max-h-[85dvh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg border border-border bg-card shadow-2xl"
        >
          <div className="flex items-start justify-between gap-4 border-b border-border px-6 pt-6 pb-4">
            <div>
              <Dialog.Title className="font-display text-4xl tracking-wide">{title}</Dialog.Title>
              <Dialog.Description className={descriptionClassName ?? "mt-1 text-xs text-muted-foreground"}>
                {description}
              </Dialog.Description>
            </div>
            <Dialog.Close
              className="-mt-2 -mr-3 flex size-11 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:text-foreground"
              aria-label={closeLabel}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
          <div className="border-t border-border px-6 py-4">
            <Dialog.Close className={cn(buttonVariants({ variant: "default" }), "w-full")}>Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
