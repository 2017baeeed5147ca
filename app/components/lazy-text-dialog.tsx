import { lazy, Suspense, useRef, useState, type ReactNode } from "react";
import type { TextDialogProps } from "./text-dialog";

const loadTextDialog = () => import("./text-dialog");
const TextDialog = lazy(loadTextDialog);

/**
 * A button that opens a `TextDialog`. The dialog's code (Radix, ~10 kB compressed) is fetched when
 * the visitor reaches for the button, not with the page (decision 0029); the button works from
 * hydration on.
 */
export function LazyTextDialog({
  label,
  className,
  children,
  prefetch,
  ...dialog
}: {
  label: ReactNode;
  className: string;
  children: ReactNode;
  /** Fetches what `children` load lazily, with the dialog's own code. */
  prefetch?: () => unknown;
} & Omit<TextDialogProps, "open" | "onOpenChange" | "trigger" | "children">) {
  const [open, setOpen] = useState(false);
  // Stays mounted once opened, so closing runs Radix's own exit and gives the focus back.
  const [opened, setOpened] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void Promise.all([loadTextDialog(), prefetch?.()])}
        onFocus={() => void Promise.all([loadTextDialog(), prefetch?.()])}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        {label}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <TextDialog {...dialog} open={open} onOpenChange={setOpen} trigger={trigger}>
            {children}
          </TextDialog>
        </Suspense>
      ) : null}
    </>
  );
}
