import { redirect } from "@remix-run/node";

// The dashboard opens on its default tab, with a URL of its own.
export const loader = () => redirect("/admin/subscribers");
