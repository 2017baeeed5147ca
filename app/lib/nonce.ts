import { createContext, useContext } from "react";

/**
 * This answer's CSP nonce (decision 0028), given by entry.server.tsx to the scripts Remix renders.
 * Undefined in the browser: nonces are for the server's HTML, and browsers hide them from the DOM.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = (): string | undefined => useContext(NonceContext);
