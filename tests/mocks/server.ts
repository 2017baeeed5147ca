import { setupServer } from "msw/node";
import { postmarkHandlers } from "./postmark";
import { shippoHandlers } from "./shippo";
import { stripeHandlers } from "./stripe";

/** One msw server for every test file; each vendor's default answers live in its own file. */
export const mockServer = setupServer(...stripeHandlers, ...shippoHandlers, ...postmarkHandlers);
