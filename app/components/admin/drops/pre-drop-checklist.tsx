import { Form, Link } from "@remix-run/react";
import type { ChecklistLevel, PreDropChecklist } from "#server/contracts/drops";
import { Button } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";
import { formatDropTime } from "./format";

// The level is said in words as well as colour, so it reads without colour and in print.
const LEVEL: Record<ChecklistLevel, { word: string; dot: string; text: string }> = {
  green: { word: "Ready", dot: "bg-emerald-500", text: "text-emerald-400" },
  amber: { word: "Check", dot: "bg-amber-400", text: "text-amber-300" },
  red: { word: "Fix", dot: "bg-red-500", text: "text-red-400" },
};

/**
 * The pre-drop checklist (decision 0026) for the dashboard while a countdown is ahead: one line per
 * check with its level, the reason and a link to the page that fixes it. The mail line carries a
 * "Send a test e-mail" button (a form post, so it works without JavaScript).
 */
export function PreDropChecklistPanel({ checklist }: { checklist: PreDropChecklist }) {
  if (!checklist.ahead) return null;
  const reds = checklist.items.filter((i) => i.level === "red").length;
  const ambers = checklist.items.filter((i) => i.level === "amber").length;
  return (
    <section aria-labelledby="pre-drop-checklist" className="rounded-lg border border-border bg-card p-4 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="pre-drop-checklist" className="text-lg font-semibold">
          Pre-drop checklist
        </h2>
        <p className="text-sm text-muted-foreground">T-0: {formatDropTime(checklist.countdownAt)}</p>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        {reds + ambers === 0 ? "Everything is ready for the drop." : `${reds} to fix, ${ambers} to check before the drop.`}
      </p>
      <ul className="mt-4 divide-y divide-border">
        {checklist.items.map((item) => {
          const level = LEVEL[item.level];
          return (
            <li
              key={item.id}
              data-check={item.id}
              data-level={item.level}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:gap-4"
            >
              <span className={cn("inline-flex w-20 shrink-0 items-center gap-2 text-sm font-semibold", level.text)}>
                <span aria-hidden className={cn("inline-block size-2.5 rounded-full", level.dot)} />
                {level.word}
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-medium">{item.label}</p>
                <p className="text-sm text-muted-foreground">{item.reason}</p>
              </div>
              <div className="flex shrink-0 flex-wrap items-center gap-2">
                {item.id === "mail" ? (
                  <Form method="post" action="/admin?index">
                    <Button type="submit" variant="outline">
                      Send a test e-mail
                    </Button>
                  </Form>
                ) : null}
                {item.fixHref ? (
                  <Link to={item.fixHref} className="inline-flex min-h-11 items-center text-sm font-medium underline underline-offset-4">
                    {item.fixLabel}
                  </Link>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
