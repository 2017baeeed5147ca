import { CircleAlert, CircleCheck, Info } from "lucide-react";
import type { FlashToast } from "#server/contracts/layout";

const ICONS = { success: CircleCheck, error: CircleAlert, info: Info } as const;

/**
 * A flash as static HTML, for before hydration or without JavaScript: it fades out after five
 * seconds in pure CSS (see `.flash-toast` in app.css).
 */
export function StaticFlash({ flash }: { flash: FlashToast }) {
  const Icon = ICONS[flash.kind];
  return (
    <div className="flash-toast-region">
      <div className="flash-toast" data-kind={flash.kind} data-testid="flash-toast" role={flash.kind === "error" ? "alert" : "status"}>
        <span className="flash-toast-icon" aria-hidden="true">
          <Icon className="size-5 shrink-0" fill="currentColor" stroke="var(--flash-bg)" strokeWidth={2} />
        </span>
        <div className="flash-toast-content">
          <p className="flash-toast-title">{flash.title}</p>
          {flash.description ? <p className="flash-toast-description">{flash.description}</p> : null}
        </div>
      </div>
    </div>
  );
}
