import { readinessCheck } from "#server/http/doors/readyz-door";

// Under `npm run dev` only: server.js answers /readyz ahead of Remix (decision 0048).
export const loader = () => readinessCheck();
