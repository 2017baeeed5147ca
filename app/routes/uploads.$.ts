import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { serveUpload } from "#server/http/doors/uploads-door";

// Under `npm run dev` only: server.js serves /uploads ahead of Remix (decision 0033).
export async function loader({ request }: LoaderFunctionArgs) {
  return serveUpload(await getAppContext(), request);
}
