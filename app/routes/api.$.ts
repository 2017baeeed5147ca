import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dispatchApi } from "#server/api/dispatch";

/**
 * Under `npm run dev` only (no server.js; decision 0033), every /api request lands here and goes to the same table the
 * production server mounts ahead of Remix (server/api/), so both answer alike. Remix sends
 * OPTIONS and HEAD to the loader; the dispatcher tells them apart by the request's method.
 */
const handle = ({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) => dispatchApi(request, context);

export const loader = handle;
export const action = handle;
