import { useQueryClient } from "@tanstack/react-query";
import { FilePlus2, LayoutTemplate } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { SUBSCRIBER_TEXTS as T, TEMPLATE_SUBJECT } from "#server/contracts/admin-subscribers";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";

/** docs/spec.md §2 "Load Template": the launch announcement, or a blank message. */
export function TemplatePanel({ onLoad, onScratch }: { onLoad: (template: string) => void; onScratch: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const [loading, setLoading] = useState(false);

  async function load() {
    setLoading(true);
    try {
      // Always fresh: the template follows the launch date and tagline in App Settings.
      const { template } = await queryClient.fetchQuery({ ...trpc.admin.subscribers.template.queryOptions(), staleTime: 0 });
      onLoad(template);
    } catch (error) {
      notify.error(T.templateFailed, error instanceof Error && error.message ? error.message : "Please try again.");
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="grid gap-4 md:grid-cols-2">
      <article className="flex flex-col overflow-hidden rounded-lg border border-border bg-card">
        <TemplateSketch />
        <div className="flex flex-1 flex-col gap-3 p-5">
          <h3 className="flex items-center gap-2 font-display text-2xl tracking-wide">
            <LayoutTemplate aria-hidden className="size-5 text-muted-foreground" />
            Product launch announcement
          </h3>
          <p className="text-sm text-muted-foreground">
            The brand's black-and-white announcement: the launch time from the countdown, the tagline, and a "Shop the drop" button. Loads
            with the subject “{TEMPLATE_SUBJECT}”; edit anything before you send.
          </p>
          <div className="mt-auto pt-2">
            <Button onClick={() => void load()} disabled={!hydrated || loading} aria-busy={loading}>
              {loading ? "Loading..." : "Load Template"}
            </Button>
          </div>
        </div>
      </article>

      <article className="flex flex-col overflow-hidden rounded-lg border border-dashed border-border bg-card/60">
        <div aria-hidden className="flex h-44 items-center justify-center border-b border-dashed border-border bg-background/40">
          <FilePlus2 className="size-12 text-muted-foreground/60" />
        </div>
        <div className="flex flex-1 flex-col gap-3 p-5">
          <h3 className="font-display text-2xl tracking-wide">Blank message</h3>
          <p className="text-sm text-muted-foreground">
            Write your own HTML. Every message gets the store's frame and an unsubscribe link, so you only write what you want to say.
          </p>
          <div className="mt-auto pt-2">
            <Button variant="outline" onClick={onScratch} disabled={!hydrated}>
              Start from Scratch
            </Button>
          </div>
        </div>
      </article>
    </div>
  );
}

/** A drawing of the template's layout (decorative): the real thing is one click away. */
function TemplateSketch() {
  return (
    <div aria-hidden className="flex h-44 items-center justify-center border-b border-border bg-[#f3f2ef] px-6">
      <div className="w-full max-w-[15rem] space-y-2 rounded-sm bg-white p-3 shadow-sm">
        <div className="flex flex-col items-center gap-1.5 rounded-[2px] bg-[#0b0b0b] px-3 py-4">
          <span className="h-1 w-8 rounded-full bg-white/50" />
          <span className="h-2.5 w-32 rounded-[1px] bg-white" />
          <span className="h-1 w-20 rounded-full bg-white/40" />
        </div>
        <span className="block h-1 w-full rounded-full bg-black/15" />
        <span className="block h-1 w-5/6 rounded-full bg-black/15" />
        <span className="block h-1 w-2/3 rounded-full bg-black/15" />
        <span className="mx-auto block h-3 w-16 rounded-[2px] bg-[#0b0b0b]" />
      </div>
    </div>
  );
}
