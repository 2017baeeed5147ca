import { UserRound } from "lucide-react";
import { SettingsCard } from "./settings-card";

/** docs/spec.md §2 "Account settings": who is signed in. */
export function ProfileCard({ username, email }: { username: string; email: string }) {
  return (
    <SettingsCard id="profile" icon={UserRound} title="Profile" description="The administrator account you are signed in with.">
      <dl className="grid gap-4 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs tracking-wider text-muted-foreground uppercase">Username</dt>
          <dd className="mt-1 truncate font-medium" data-testid="account-username">
            {username}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs tracking-wider text-muted-foreground uppercase">Email</dt>
          <dd className="mt-1 truncate font-medium" data-testid="account-email">
            {email}
          </dd>
        </div>
      </dl>
    </SettingsCard>
  );
}
