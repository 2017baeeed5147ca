import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import {
  outcomeMessage,
  SUBSCRIBER_TEXTS as T,
  type CampaignProgress,
  type ComposeEmailInput,
  type SendResult,
} from "#server/contracts/admin-subscribers";
import { postJson } from "./format";
import { notify } from "#app/components/toasts";
import { useTRPC } from "#app/lib/trpc";

// The send answers at once (202) and the progress is polled, so a large list never times out.
const ASYNC = { Prefer: "respond-async" };
const POLL_MS = 1000;

export const isRunning = (p: Pick<CampaignProgress, "status"> | undefined) => p?.status === "queued" || p?.status === "sending";

type Start = { kind: "send"; draft: ComposeEmailInput } | { kind: "resume"; id: number };

/**
 * Sending and resuming, and following the send until it ends: "Email Sent" with the spec's
 * message, or "Email Failed" with how far it got. Send and resume use the REST doors, whose
 * requests carry the origin the links in the mail are built from.
 */
export function useCampaignSender(onSent: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [tracking, setTracking] = useState<number | null>(null);
  const announced = useRef(new Set<number>());

  const start = useMutation({
    mutationFn: (request: Start) =>
      request.kind === "send"
        ? postJson<SendResult>("/api/admin/send-email", request.draft, ASYNC)
        : postJson<SendResult>(`/api/admin/campaigns/${request.id}/resume`, undefined, ASYNC),
    onSuccess: (result) => {
      // Forget what an earlier run of this campaign looked like, so its old end is not announced.
      queryClient.removeQueries({ queryKey: trpc.admin.subscribers.campaign.queryKey({ id: result.campaignId }) });
      announced.current.delete(result.campaignId);
      setTracking(result.campaignId);
      void queryClient.invalidateQueries({ queryKey: trpc.admin.subscribers.campaigns.queryKey() });
    },
    onError: (error) => notify.error(T.sendFailed, error.message),
  });

  const progress = useQuery({
    ...trpc.admin.subscribers.campaign.queryOptions({ id: tracking ?? 0 }),
    enabled: tracking !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data) ? false : POLL_MS),
  });

  const latest = tracking === null ? undefined : progress.data;
  useEffect(() => {
    if (!latest || isRunning(latest) || announced.current.has(latest.id)) return;
    announced.current.add(latest.id);
    if (latest.status === "sent") {
      notify.success(T.sent, outcomeMessage(latest));
      onSent();
    } else {
      notify.error(T.sendFailed, outcomeMessage(latest));
    }
    void queryClient.invalidateQueries({ queryKey: trpc.admin.subscribers.campaigns.queryKey() });
  }, [latest, onSent, queryClient, trpc]);

  return {
    send: (draft: ComposeEmailInput) => start.mutate({ kind: "send", draft }),
    resume: (id: number) => start.mutate({ kind: "resume", id }),
    /** The followed send while it runs. */
    running: isRunning(latest) ? latest : undefined,
    busy: start.isPending || isRunning(latest) || (tracking !== null && progress.isPending),
  };
}

export type CampaignSender = ReturnType<typeof useCampaignSender>;
