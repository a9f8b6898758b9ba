import { createContext, useContext } from "react";

/** This request's CSP nonce, for the script tags React Router renders (server only). */
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
