import { useMutation, useQuery } from "@tanstack/react-query";
import { Pause, Play, Square } from "lucide-react";
import { useState, type FormEvent } from "react";
import { formatLaunchTime } from "#server/contracts/store-time";
import { roomNumberProblem, type WaitingRoomAdmin, type WaitingRoomPatch } from "#server/contracts/waiting-room";
import { FieldError } from "#app/components/form-messages";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { useTRPC } from "#app/lib/trpc";
import { WaitingRoomSettings } from "./waiting-room-settings";

/** The live line moves by the second: the figures are asked for this often. */
const POLL_MS = 3_000;

const PHASES: Record<WaitingRoomAdmin["phase"], string> = {
  off: "Off: the store lets everyone in",
  ended: "Ended for this drop: the store lets everyone in",
  closed: "Not in its window: the store lets everyone in",
  before: "Before T-0: arrivals are gathering for the draw",
  open: "Open: letting the line in",
};

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border border-border p-4">
      <dt className="text-xs font-semibold tracking-[0.14em] text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 font-display text-4xl tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** /admin/drop: the live line (tRPC, every few seconds), pause and resume, the rate, ending the room, its settings. */
export function DropPanel({ initial, loadedAt }: { initial: WaitingRoomAdmin; loadedAt: number }) {
  const trpc = useTRPC();
  const room = useQuery({
    ...trpc.admin.waitingRoom.get.queryOptions(),
    initialData: initial,
    initialDataUpdatedAt: loadedAt,
    refetchInterval: POLL_MS,
  });
  const data = room.data;
  const [rate, setRate] = useState(String(initial.admitPerMinute));
  const [rateError, setRateError] = useState<string | null>(null);
  const update = useMutation(
    trpc.admin.waitingRoom.update.mutationOptions({
      onSuccess: (next) => {
        void room.refetch();
        setRate(String(next.admitPerMinute));
        notify.success("Waiting room updated");
      },
      onError: (error) => notify.error("Could not update the waiting room", error.message),
    }),
  );
  const change = (patch: WaitingRoomPatch) => update.mutate(patch);
  const submitRate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = roomNumberProblem(rate, "admitPerMinute");
    setRateError(problem);
    if (problem) event.currentTarget.querySelector<HTMLInputElement>("#admit-per-minute")?.focus();
    else change({ admitPerMinute: Number(rate) });
  };
  const gated = data.phase === "before" || data.phase === "open";

  return (
    <div className="space-y-8">
      <p className="text-sm text-muted-foreground" data-testid="drop-phase">
        {PHASES[data.phase]}. Drop at {formatLaunchTime(data.dropAt)}
        {data.paused ? " — paused" : ""}.
      </p>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Waiting" value={data.waiting.toLocaleString("en-US")} testId="figure-waiting" />
        <Figure label="Admitted" value={data.admitted.toLocaleString("en-US")} testId="figure-admitted" />
        <Figure label="In the last minute" value={data.admittedLastMinute.toLocaleString("en-US")} testId="figure-last-minute" />
        <Figure
          label="Median wait"
          value={data.medianWaitSeconds === null ? "—" : `${Math.round(data.medianWaitSeconds)} s`}
          testId="figure-median-wait"
        />
      </dl>
      {/* Top-aligned, each button down by the label's height: a rate error below the field moves nothing. */}
      <div className="flex flex-wrap items-start gap-4">
        {data.paused ? (
          <Button type="button" className="sm:mt-4.5" onClick={() => change({ paused: false })} disabled={update.isPending}>
            <Play aria-hidden />
            Resume
          </Button>
        ) : (
          <Button
            type="button"
            variant="outline"
            className="sm:mt-4.5"
            onClick={() => change({ paused: true })}
            disabled={update.isPending}
          >
            <Pause aria-hidden />
            Pause
          </Button>
        )}
        <form noValidate onSubmit={submitRate} className="flex items-start gap-2">
          <div className="max-w-60 space-y-1">
            <Label htmlFor="admit-per-minute">Shoppers let in per minute</Label>
            <Input
              id="admit-per-minute"
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={rate}
              onChange={(e) => {
                setRate(e.target.value);
                if (rateError) setRateError(null);
              }}
              aria-invalid={rateError ? true : undefined}
              aria-describedby="admit-per-minute-error"
              // The input's own w-full gives way: `cn` does not resolve conflicts (decision 0029).
              className="w-36!"
            />
            <FieldError id="admit-per-minute-error" errors={rateError ? [rateError] : undefined} />
          </div>
          <Button type="submit" variant="outline" disabled={update.isPending} className="mt-4.5">
            Set rate
          </Button>
        </form>
        {data.ended ? (
          <Button
            type="button"
            variant="outline"
            className="sm:mt-4.5"
            onClick={() => change({ ended: false })}
            disabled={update.isPending}
          >
            Reopen the waiting room
          </Button>
        ) : (
          <Button
            type="button"
            variant="destructive"
            className="sm:mt-4.5"
            onClick={() => change({ ended: true })}
            disabled={update.isPending || !gated}
          >
            <Square aria-hidden />
            End the waiting room
          </Button>
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        Window: {data.opensMinutesBefore} min before to {data.closesMinutesAfter} min after the drop. A pass lasts {data.passMinutes} min;
        at most {data.perAddress} places per address. {data.enabled ? "" : "The waiting room is switched off."}
      </p>
      <WaitingRoomSettings room={initial} saving={update.isPending} onSave={change} />
    </div>
  );
}
