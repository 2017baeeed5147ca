import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveUpload } from "#server/http/doors/uploads-door";

// Under `npm run dev` only: server.js serves /uploads ahead of Remix (decision 0033).
export const loader = ({ request }: LoaderFunctionArgs) => serveUpload(request);
