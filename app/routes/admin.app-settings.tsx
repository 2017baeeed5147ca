import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { CountdownForm } from "#app/components/admin/settings/countdown-form";
import { MediaSetting } from "#app/components/admin/settings/media-setting";
import { SettingsLoadError } from "#app/components/admin/settings/settings-load-error";
import { appSettingsAction, appSettingsLoader } from "#server/http/doors/admin-settings-door";
import { TextSettingForm } from "#app/components/admin/settings/text-setting-form";
import { pageTitle } from "#app/lib/page-title";
import { OrderEmailsForm } from "#app/components/admin/settings/order-emails-form";
import { AlertRecipientsForm } from "#app/components/admin/settings/alert-recipients-form";

export const meta: MetaFunction = ({ matches }) => [pageTitle("App Configuration", matches)];

/**
 * Every setting, read once for the whole tab. A failed read is not an error page: the tab shows
 * the spec's "Failed to load settings" alert with a way to try again.
 */
export const loader = (args: LoaderFunctionArgs) => appSettingsLoader(args);

export const action = appSettingsAction;

export default function AppSettingsTab() {
  const { settings } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="App Configuration">
      {settings ? (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <CountdownForm countdown={settings.countdown} today={settings.today} />
          <MediaSetting kind="video" current={settings.backgroundVideo} />
          <TextSettingForm settingKey="countdown_text" current={settings.texts.countdown_text} />
          <MediaSetting kind="audio" current={settings.backgroundMusic} />
          <TextSettingForm settingKey="homepage_tagline" current={settings.texts.homepage_tagline} />
          <TextSettingForm settingKey="homepage_subtitle" current={settings.texts.homepage_subtitle} />
          <OrderEmailsForm current={settings.orderEmails} />
          <AlertRecipientsForm current={settings.alertRecipients} />
        </div>
      ) : (
        <SettingsLoadError />
      )}
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
