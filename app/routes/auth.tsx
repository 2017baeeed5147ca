import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LoginScreen } from "#app/components/login-screen";
import { loginAction, loginLoader } from "#server/http/doors/login-door";
import { pageTitle } from "#app/lib/page-title";

// Also served at /admin/login: admin_.login.tsx re-exports this module.
export const meta: MetaFunction = ({ matches }) => [pageTitle("Admin Login", matches)];
export const loader = (args: LoaderFunctionArgs) => loginLoader(args);
export const action = (args: ActionFunctionArgs) => loginAction(args);
export default LoginScreen;

export { ErrorBoundary } from "#app/components/error-pages";
