import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Inbox, KeyRound, LayoutTemplate, List, PencilLine } from "lucide-react";
import { useCallback, useState } from "react";
import { Link, useSearchParams } from "@remix-run/react";
import {
  pageFromSearch,
  SUBSCRIBER_PAGE_SIZE,
  TEMPLATE_SUBJECT,
  type ComposeEmailInput,
  type SubscriberList,
} from "#server/contracts/admin-subscribers";
import { ComposePanel, type ComposeMode } from "./compose-panel";
import { EarlyAccessPanel } from "./early-access-panel";
import { SubscriberListPanel } from "./subscriber-list";
import { TabBar, TabPanel, type TabItem } from "./tabs";
import { TemplatePanel } from "./template-panel";
import { useCampaignSender } from "./use-campaign-sender";
import { AdminSection } from "#app/components/admin/admin-section";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";

export type SubscriberTab = "list" | "template" | "compose" | "early";

const TABS: readonly TabItem<SubscriberTab>[] = [
  { id: "list", label: "Subscriber List", icon: List },
  { id: "template", label: "Load Template", icon: LayoutTemplate },
  { id: "compose", label: "Compose Email", icon: PencilLine },
  { id: "early", label: "Early Access", icon: KeyRound },
];

/** docs/spec.md §9: the list is polled every 10 s and stale after 5 s. */
const POLL_MS = 10_000;
const STALE_MS = 5_000;

/**
 * The subscriber area, shared by the Subscribers tab ("Subscriber Management") and the Email tab
 * ("Email Subscribers"): the list, the template and the composer. The first list comes from the
 * route loader, so the page paints with it; react-query then owns and polls it. The list is one
 * page of 100 at a time (`?page=` in the URL, read by the loader too, so paging works without
 * JavaScript); only the page on screen is polled, and the previous page stays up while the next
 * one loads.
 */
export function SubscriberManager({
  heading,
  initialTab,
  initialList,
  loadedAt,
}: {
  heading: string;
  initialTab: SubscriberTab;
  initialList: SubscriberList;
  loadedAt: number;
}) {
  const trpc = useTRPC();
  const [tab, setTab] = useState<SubscriberTab>(initialTab);
  const [draft, setDraft] = useState<ComposeEmailInput>({ subject: "", htmlContent: "" });
  const [mode, setMode] = useState<ComposeMode>("edit");
  const [params] = useSearchParams();
  const page = pageFromSearch(params.get("page"));
  // The loader's list seeds only the page it was loaded for; other pages are fetched.
  const seeded = initialList.page === page && initialList.pageSize === SUBSCRIBER_PAGE_SIZE;
  const list = useQuery({
    ...trpc.admin.subscribers.list.queryOptions({ page, pageSize: SUBSCRIBER_PAGE_SIZE }),
    initialData: seeded ? initialList : undefined,
    initialDataUpdatedAt: seeded ? loadedAt : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
    staleTime: STALE_MS,
  });
  // After a successful send the preview closes (docs/spec.md §4); the text stays, as a record of it.
  const sender = useCampaignSender(useCallback(() => setMode("edit"), []));

  const compose = (next: ComposeEmailInput) => {
    setDraft(next);
    setMode("edit");
    setTab("compose");
  };

  return (
    <AdminSection heading={heading}>
      <div>
        <TabBar
          items={TABS}
          value={tab}
          onChange={setTab}
          idPrefix="subscribers"
          label="Subscriber tools"
          trailing={
            <Button asChild variant="ghost" size="sm">
              <Link to="/admin/outbox" prefetch="intent">
                <Inbox aria-hidden />
                Outbox
              </Link>
            </Button>
          }
        />
        <TabPanel idPrefix="subscribers" id={tab}>
          {tab === "list" ? <SubscriberListPanel list={list} page={page} /> : null}
          {tab === "early" ? <EarlyAccessPanel /> : null}
          {tab === "template" ? (
            <TemplatePanel
              onLoad={(template) => compose({ subject: TEMPLATE_SUBJECT, htmlContent: template })}
              onScratch={() => compose({ subject: "", htmlContent: "" })}
            />
          ) : null}
          {tab === "compose" ? (
            <ComposePanel
              draft={draft}
              onDraftChange={setDraft}
              mode={mode}
              onModeChange={setMode}
              subscriberCount={list.data?.count ?? initialList.count}
              sender={sender}
            />
          ) : null}
        </TabPanel>
      </div>
    </AdminSection>
  );
}
