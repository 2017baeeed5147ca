import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { LogOut } from "lucide-react";
import { AdminDataProvider } from "#app/components/admin/trpc-provider";
import { Button } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";
import { adminLayoutLoader } from "#server/http/doors/admin-layout-door";
import { logoutAction } from "#server/http/doors/logout-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Admin Dashboard", matches), { name: "robots", content: "noindex" }];

export const loader = ({ request }: LoaderFunctionArgs) => adminLayoutLoader(request);

/** The header's Logout posts here (`/admin`, the layout's own action): signed out, home with a toast. */
export const action = (args: ActionFunctionArgs) => logoutAction(args);

export const ADMIN_TABS = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/subscribers", label: "Subscribers" },
  { to: "/admin/email", label: "Email" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/drop", label: "Drop" },
  { to: "/admin/drops", label: "Drop reports" },
  { to: "/admin/draws", label: "Draws" },
  { to: "/admin/app-settings", label: "App Settings" },
  { to: "/admin/settings", label: "Account" },
] as const;

export default function AdminLayout() {
  const { username } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/admin";
  return (
    <AdminDataProvider>
      <div className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6">
        <header className="flex flex-wrap items-end justify-between gap-4 border-b border-border pb-6">
          <div>
            <h1 className="font-display text-4xl tracking-wide sm:text-5xl">Admin Dashboard</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Signed in as <span className="font-medium text-foreground">{username}</span>
            </p>
          </div>
          <Form method="post" action="/admin">
            <Button type="submit" variant="outline" disabled={loggingOut}>
              <LogOut aria-hidden className="size-4" />
              {loggingOut ? "Logging out..." : "Logout"}
            </Button>
          </Form>
        </header>
        {/* Every section in sight on a phone too: the tabs wrap, rather than hide past the edge of a strip that scrolls. */}
        <nav aria-label="Admin sections" className="mt-6">
          <ul className="flex flex-wrap gap-1 rounded-lg bg-muted p-1">
            {ADMIN_TABS.map((tab) => (
              <li key={tab.to}>
                <NavLink
                  to={tab.to}
                  end={tab.to === "/admin"}
                  prefetch="intent"
                  className={({ isActive }) =>
                    cn(
                      "inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium transition-colors sm:px-4",
                      isActive ? "bg-background text-foreground shadow" : "text-muted-foreground hover:text-foreground",
                    )
                  }
                >
                  {tab.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-8">
          <Outlet />
        </div>
      </div>
    </AdminDataProvider>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
