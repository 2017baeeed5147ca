// The spec's "/admin/login and /auth: the same login screen": one route module serves both.
export { action, default, ErrorBoundary, loader, meta } from "./auth";
