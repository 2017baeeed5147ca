import { healthCheck } from "#server/http/doors/healthz-door";

// Under `npm run dev` only: server.js answers /healthz ahead of Remix (decision 0033).
export const loader = () => healthCheck();
