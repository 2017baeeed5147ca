import { getAppContext } from "./boot";
import { startFulfilmentJob } from "./services/fulfilment/fulfilment-job";

const globalJobs = globalThis as typeof globalThis & { __storeDevJobs?: boolean };

/**
 * `npm run dev` has no server.js: the dev server starts the fulfilment job here, once per process
 * (module reloads do not start a second one), so a payment in dev still gets its e-mail and label.
 */
export async function startDevJobs(): Promise<void> {
  if (globalJobs.__storeDevJobs) return;
  globalJobs.__storeDevJobs = true;
  startFulfilmentJob(await getAppContext());
}
