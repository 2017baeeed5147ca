import * as React from "react";
import { cn } from "#app/lib/utils";

export type InputProps = React.InputHTMLAttributes<HTMLInputElement>;

export const Input = React.forwardRef<HTMLInputElement, InputProps>(({ className, type = "text", ...props }, ref) => (
  <input
    ref={ref}
    type={type}
    data-slot="input"
    className={cn(
      // text-base below md keeps iOS Safari from zooming in on focus.
      "flex h-11 w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-2 text-base text-foreground shadow-xs md:text-sm",
      "placeholder:text-muted-foreground selection:bg-foreground selection:text-background",
      "transition-[color,border-color,box-shadow] duration-150 outline-none",
      "hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
      "disabled:cursor-not-allowed disabled:opacity-50",
      "aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
      "file:inline-flex file:h-7 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground",
      className,
    )}
    {...props}
  />
));
Input.displayName = "Input";
