import { cva, type VariantProps } from "class-variance-authority";
import * as React from "react";
import { cn } from "#app/lib/utils";

export const buttonVariants = cva(
  [
    "inline-flex shrink-0 items-center justify-center gap-2 rounded-md font-semibold",
    "tracking-[0.08em] transition-[color,background-color,border-color,box-shadow,opacity] duration-150",
    "outline-none focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:ring-offset-background",
    "disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50",
    "[&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
  ],
  {
    // `cn` joins classes, it does not resolve conflicts (decision 0029): a class the base would
    // restate lives in the variants instead (the case, the ring's colour, the text size), and a
    // call site that sets its own size passes size={null} with its full set of size classes.
    variants: {
      variant: {
        default: "uppercase bg-primary text-primary-foreground shadow-sm hover:bg-primary/85 active:bg-primary/75 focus-visible:ring-ring",
        outline:
          "uppercase border border-foreground/35 bg-transparent text-foreground hover:border-foreground hover:bg-foreground/5 active:bg-foreground/10 focus-visible:ring-ring",
        ghost: "uppercase text-foreground hover:bg-accent hover:text-accent-foreground active:bg-accent/80 focus-visible:ring-ring",
        destructive:
          "uppercase bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90 active:bg-destructive/80 focus-visible:ring-destructive",
        secondary: "uppercase bg-secondary text-secondary-foreground hover:bg-secondary/80 focus-visible:ring-ring",
        link: "normal-case tracking-normal text-foreground underline-offset-4 hover:underline focus-visible:ring-ring",
      },
      size: {
        // 44px tall: a comfortable tap target on phones.
        default: "h-11 px-5 text-sm whitespace-nowrap",
        sm: "h-9 px-3 text-xs whitespace-nowrap",
        lg: "h-12 px-8 text-base whitespace-nowrap",
        icon: "size-11 text-sm whitespace-nowrap",
      },
    },
    defaultVariants: {
      variant: "default",
      size: "default",
    },
  },
);

/**
 * Renders its one child element (a link, here) with the button's props, the child's own props
 * winning and the classes joined. What Radix's Slot does for `asChild`, without its 2 kB on every
 * page (decision 0029): no handler composition (no caller gives both). A ref on the child (the
 * product list's Edit link, which takes the focus back after a save) and one on the button both
 * reach the element.
 */
const Slot = React.forwardRef<HTMLElement, React.HTMLAttributes<HTMLElement>>(({ children, ...props }, ref) => {
  if (!React.isValidElement<React.HTMLAttributes<HTMLElement>>(children)) return null;
  const own = children.props;
  const childRef = (children as unknown as { ref?: React.Ref<HTMLElement> }).ref;
  const both = (element: HTMLElement | null) => {
    for (const each of [ref, childRef]) {
      if (typeof each === "function") each(element);
      else if (each) (each as React.MutableRefObject<HTMLElement | null>).current = element;
    }
  };
  return React.cloneElement(children, {
    ...props,
    ...own,
    className: cn(props.className, own.className),
    ref: ref || childRef ? both : undefined,
  } as React.Attributes);
});
Slot.displayName = "Slot";

export interface ButtonProps extends React.ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {
  /** Render the single child element (for example a `Link`) with the button's styles. */
  asChild?: boolean;
}

export const Button = React.forwardRef<HTMLButtonElement, ButtonProps>(
  ({ className, variant, size, asChild = false, type, ...props }, ref) => {
    const Comp = asChild ? Slot : "button";
    return (
      <Comp
        ref={ref}
        data-slot="button"
        className={cn(buttonVariants({ variant, size, className }))}
        // A plain <button> defaults to "button" so it never submits a form by accident.
        type={asChild ? type : (type ?? "button")}
        {...props}
      />
    );
  },
);
Button.displayName = "Button";
