import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EARLY_ACCESS_TAG, type EarlyAccessLinkView } from "#server/contracts/early-access";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { useTRPC } from "#app/lib/trpc";
import { formatEastern, postJson } from "./format";

const STATUS: Record<EarlyAccessLinkView["status"], { label: string; className: string }> = {
  unused: { label: "Not opened", className: "border-border text-muted-foreground" },
  used: { label: "Used", className: "border-green-400/40 bg-green-500/15 text-green-200" },
  revoked: { label: "Revoked", className: "border-red-400/40 bg-red-500/15 text-red-200" },
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : "Please try again.");

/**
 * Early-access links (decision 0020): the window before a release they open, a link for one
 * subscriber, and every link made so far with its state and a Revoke button.
 */
export function EarlyAccessPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.admin.earlyAccess.overview.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.earlyAccess.overview.queryKey() });
  const revoke = useMutation(trpc.admin.earlyAccess.revoke.mutationOptions());
  const setMinutes = useMutation(trpc.admin.earlyAccess.setMinutes.mutationOptions());
  const [email, setEmail] = useState("");
  const [made, setMade] = useState<{ email: string; url: string } | null>(null);
  const [making, setMaking] = useState(false);

  async function makeLink(event: React.FormEvent) {
    event.preventDefault();
    setMaking(true);
    try {
      const { url } = await postJson<{ url: string }>("/api/admin/early-access", { email });
      setMade({ email, url });
      setEmail("");
      void refresh();
    } catch (error) {
      notify.error("Link Not Made", reasonOf(error));
    } finally {
      setMaking(false);
    }
  }

  async function saveMinutes(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("earlyMinutes");
    try {
      await setMinutes.mutateAsync({ earlyMinutes: Number(value) });
      notify.success("Early Access Updated", `Links open ${String(value)} minutes before a release.`);
      void refresh();
    } catch (error) {
      notify.error("Failed to Update Early Access", reasonOf(error));
    }
  }

  return (
    <div className="space-y-6">
      <div className="grid gap-4 lg:grid-cols-2">
        <form onSubmit={saveMinutes} className="space-y-3 rounded-lg border border-border bg-card p-4" key={overview.data?.earlyMinutes}>
          <Label htmlFor="early-minutes">Minutes before a release</Label>
          <div className="flex gap-2">
            <Input
              id="early-minutes"
              name="earlyMinutes"
              type="number"
              min={1}
              max={1440}
              step={1}
              inputMode="numeric"
              defaultValue={overview.data?.earlyMinutes ?? 30}
              className="max-w-32"
            />
            <Button type="submit" variant="outline" disabled={setMinutes.isPending}>
              Save
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            A link works from this long before a countdown-restricted product's release; it shows the drop to the one browser that opens it.
          </p>
        </form>
        <form onSubmit={makeLink} className="space-y-3 rounded-lg border border-border bg-card p-4">
          <Label htmlFor="early-email">Link for one subscriber</Label>
          <div className="flex gap-2">
            <Input
              id="early-email"
              type="email"
              required
              autoComplete="off"
              placeholder="fan@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Button type="submit" disabled={making || email.trim() === ""}>
              {making ? "Making..." : "Make link"}
            </Button>
          </div>
          {made ? (
            <p className="text-xs break-all text-muted-foreground" data-testid="early-access-url">
              For {made.email}: <span className="text-foreground select-all">{made.url}</span>
            </p>
          ) : (
            <p className="text-xs text-muted-foreground">
              Or put <code className="text-foreground">{EARLY_ACCESS_TAG}</code> in an e-mail's link: each subscriber gets their own when it
              is sent.
            </p>
          )}
        </form>
      </div>

      <section aria-labelledby="early-links" className="rounded-lg border border-border bg-card">
        <h3
          id="early-links"
          className="border-b border-border px-4 py-3 text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase"
        >
          Early-access links
        </h3>
        {overview.isError ? (
          <p className="px-4 py-4 text-sm text-muted-foreground">The links could not be loaded.</p>
        ) : !overview.data ? (
          <p className="px-4 py-4 text-sm text-muted-foreground">Loading…</p>
        ) : overview.data.links.length === 0 ? (
          <p className="px-4 py-4 text-sm text-muted-foreground">No links yet.</p>
        ) : (
          <ul className="divide-y divide-border">
            {overview.data.links.map((link) => (
              <li key={link.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="early-access-row">
                <div className="min-w-0">
                  <p className="text-sm font-medium break-all">{link.email}</p>
                  <p className="text-xs text-muted-foreground">
                    Made {formatEastern(link.createdAt, "MMM d, HH:mm")}
                    {link.campaignId ? ` for send #${link.campaignId}` : ""}
                    {link.openedAt ? ` · opened ${formatEastern(link.openedAt, "MMM d, HH:mm")}` : ""}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${STATUS[link.status].className}`}>
                    {STATUS[link.status].label}
                  </span>
                  {link.status !== "revoked" ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Revoke the link for ${link.email}`}
                      disabled={revoke.isPending}
                      onClick={async () => {
                        try {
                          await revoke.mutateAsync({ id: link.id });
                          notify.success("Link Revoked", link.email);
                          void refresh();
                        } catch (error) {
                          notify.error("Failed to Revoke", reasonOf(error));
                        }
                      }}
                    >
                      Revoke
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
