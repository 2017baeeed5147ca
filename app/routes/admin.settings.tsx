import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { ChangePasswordForm } from "#app/components/admin/settings/change-password-form";
import { ProfileCard } from "#app/components/admin/settings/profile-card";
import { ShippingTestPanel } from "#app/components/admin/settings/shipping-test-panel";
import { accountAction, accountLoader } from "#server/http/doors/admin-account-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Account Settings", matches)];

export const loader = ({ request }: LoaderFunctionArgs) => accountLoader(request);

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
