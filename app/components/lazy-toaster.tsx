import { useLazyToaster } from "./lazy-sonner";
import { useToastFocus } from "./toast-focus";

/** sonner's <Toaster>, rendered once the first toast has loaded it, inside the focus keeper. */
export function LazyToaster() {
  const Toaster = useLazyToaster();
  const focus = useToastFocus();
  return (
    <div
      onFocusCapture={focus.onFocusCapture}
      onBlurCapture={focus.onBlurCapture}
      onKeyDownCapture={focus.onKeyDownCapture}
      ref={focus.ref}
    >
      {Toaster ? (
        <Toaster
          visibleToasts={1}
          duration={5000}
          theme="dark"
          position="bottom-center"
          richColors
          closeButton
          toastOptions={{ classNames: { toast: `${FOCUS_RING} ${HIDDEN_WHEN_BEHIND}`, closeButton: FOCUS_RING } }}
        />
      ) : null}
    </div>
  );
}

/*
 * sonner's own focus ring is a 2px black shadow at 20% (invisible on the dark theme) and its
 * stylesheet, injected unlayered, sets `outline: none`, which beats the store's layered
 * `:focus-visible` outline: only an !important utility wins.
 */
const FOCUS_RING = "focus-visible:outline-2! focus-visible:outline-solid! focus-visible:outline-offset-2! focus-visible:outline-ring!";

/*
 * Only the newest toast shows (visibleToasts={1}); sonner keeps the older ones at opacity 0 yet in
 * the Tab order, so Tab could land on an invisible toast. Hidden, they are out of it (and out of
 * the accessibility tree, which announced them already).
 */
const HIDDEN_WHEN_BEHIND = "data-[visible=false]:invisible!";
