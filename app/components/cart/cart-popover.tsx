import * as Popover from "@radix-ui/react-popover";
import type { RefObject } from "react";
import { CartPanel } from "./cart-panel";
import type { LiveCart } from "./use-live-cart";

/**
 * The header's bag dropdown, loaded the first time the bag button is hovered, focused or clicked
 * (decision 0029): Radix's popover and its positioning library are ~20 kB compressed that no page
 * needs for its first paint. The bag link itself stays in the header as the anchor.
 */
export default function CartPopover({
  anchor,
  open,
  onOpenChange,
  live,
}: {
  anchor: RefObject<HTMLAnchorElement>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  live: LiveCart;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLElement>} />
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={10}
          collisionPadding={8}
          aria-label="Shopping Cart"
          data-testid="cart-dropdown"
          className="popover-grow z-50 flex max-h-[min(40rem,calc(100dvh-5rem))] w-[min(25rem,calc(100vw-1rem))] flex-col overflow-hidden rounded-lg border border-border bg-popover text-popover-foreground shadow-[0_24px_60px_-12px_rgb(0_0_0/0.8)]"
          // The bag link is not a Radix trigger: a click on it toggles the dropdown itself, and
          // closing gives it focus back.
          onInteractOutside={(event) => {
            if (anchor.current?.contains(event.target as Node)) event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            anchor.current?.focus();
          }}
        >
          <CartPanel live={live} onClose={() => onOpenChange(false)} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
