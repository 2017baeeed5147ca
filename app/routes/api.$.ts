import { jsonError } from "../../server/http/rest";

// Unknown API paths answer in the API's own language, not with the HTML 404 page.
const notFound = ({ request }: { request: Request }) =>
  jsonError(404, `No API route for ${request.method} ${new URL(request.url).pathname}.`);

export const loader = notFound;
export const action = notFound;
