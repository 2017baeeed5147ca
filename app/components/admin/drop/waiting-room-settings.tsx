import { useState, type FormEvent } from "react";
import { roomNumberProblem, type WaitingRoomSettings as Settings, type WaitingRoomPatch } from "#server/contracts/waiting-room";
import { FieldError } from "#app/components/form-messages";
import { Switch } from "#app/components/admin/products/form-fields";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";

type Minutes = "opensMinutesBefore" | "closesMinutesAfter" | "passMinutes" | "perAddress";

const FIELDS: { name: Minutes; label: string; hint: string; min: number }[] = [
  {
    name: "opensMinutesBefore",
    label: "Opens, minutes before the drop",
    hint: "Everyone who arrives from then on is in the draw at T-0.",
    min: 0,
  },
  { name: "closesMinutesAfter", label: "Closes, minutes after the drop", hint: "From then on the store lets everyone in.", min: 0 },
  { name: "passMinutes", label: "A pass lasts, minutes", hint: "A shopper's time in the store once let in; renewed while paying.", min: 1 },
  {
    name: "perAddress",
    label: "Places per address",
    hint: "Shoppers on one network (an office, a campus, a phone carrier) share an address: keep this above the biggest such group you expect.",
    min: 1,
  },
];

const asText = (settings: Settings) =>
  Object.fromEntries(FIELDS.map(({ name }) => [name, String(settings[name])])) as Record<Minutes, string>;

/**
 * The waiting room's settings on /admin/drop (the same PATCH as the REST door): whether it runs,
 * its window around the drop, how long a pass lasts and how many places one address may take.
 */
export function WaitingRoomSettings({
  room,
  saving,
  onSave,
}: {
  room: Settings;
  saving: boolean;
  onSave: (patch: WaitingRoomPatch) => void;
}) {
  const [enabled, setEnabled] = useState(room.enabled);
  const [values, setValues] = useState(() => asText(room));
  const [errors, setErrors] = useState<Partial<Record<Minutes, string>>>({});
  // Checked here and shown under each field, as every other admin form does (no browser bubbles).
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = Object.fromEntries(
      FIELDS.flatMap(({ name }) => {
        const problem = roomNumberProblem(values[name], name);
        return problem ? [[name, problem]] : [];
      }),
    ) as Partial<Record<Minutes, string>>;
    setErrors(found);
    const first = FIELDS.find(({ name }) => found[name]);
    if (first) {
      event.currentTarget.querySelector<HTMLInputElement>(`#room-${first.name}`)?.focus();
      return;
    }
    onSave({ enabled, ...Object.fromEntries(FIELDS.map(({ name }) => [name, Number(values[name])])) });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5 rounded-lg border border-border p-5" aria-labelledby="waiting-room-settings">
      <h2 id="waiting-room-settings" className="font-display text-2xl tracking-wide uppercase">
        Settings
      </h2>
      <Switch
        label="Waiting room on"
        // Says what the switch's current position does, not what the other one would.
        description={
          enabled
            ? "On: in its window, shoppers wait in line and are let in at the set rate."
            : "Off: the store lets everyone in at T-0, fastest first."
        }
        inputProps={{ checked: enabled, onChange: (event) => setEnabled(event.currentTarget.checked) }}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map(({ name, label, hint, min }) => (
          <div key={name} className="space-y-1">
            <Label htmlFor={`room-${name}`}>{label}</Label>
            <Input
              id={`room-${name}`}
              type="number"
              min={min}
              step={1}
              inputMode="numeric"
              required
              value={values[name]}
              onChange={(event) => {
                setValues({ ...values, [name]: event.target.value });
                if (errors[name]) setErrors({ ...errors, [name]: undefined });
              }}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={`room-${name}-hint room-${name}-error`}
            />
            <p id={`room-${name}-hint`} className="text-xs text-muted-foreground">
              {hint}
            </p>
            <FieldError id={`room-${name}-error`} errors={errors[name] ? [errors[name]] : undefined} />
          </div>
        ))}
      </div>
      <Button type="submit" disabled={saving}>
        Save settings
      </Button>
    </form>
  );
}
