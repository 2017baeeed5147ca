import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { ChangePasswordForm } from "#app/components/admin/settings/change-password-form";
import { ProfileCard } from "#app/components/admin/settings/profile-card";
import { ShippingTestPanel } from "#app/components/admin/settings/shipping-test-panel";
import { accountAction } from "#server/http/doors/admin-account-door";
import { getAppContext } from "#server/boot";
import { requireAdminPage } from "#server/http/auth";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Account Settings", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const user = await requireAdminPage(ctx, request);
  const shippo = ctx.config.shippo.apiKey;
  return {
    username: user.username,
    email: user.email,
    shippingProvider: shippo ? (shippo.startsWith("shippo_test_") ? "shippo-test" : "shippo-live") : "local",
  } as const;
}

export const action = accountAction;

export default function AccountSettingsTab() {
  const { username, email, shippingProvider } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Account Settings">
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="grid gap-6">
          <ProfileCard username={username} email={email} />
          <ChangePasswordForm />
        </div>
        <ShippingTestPanel provider={shippingProvider} />
      </div>
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
