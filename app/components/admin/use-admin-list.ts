import { useCallback, useEffect, useState } from "react";
import type { z } from "zod/mini";
import type { Endpoint } from "../../../common/endpoints.ts";
import { type CallArgs, type CallRequest, callApi } from "../../lib/api.ts";

/**
 * A list the admin page reads from the API (after hydration, with the admin's session), and
 * reloads after each change so the tab shows what the server now holds.
 */
export function useAdminList<E extends Endpoint & { method: "GET" }>(
  endpoint: E,
  request?: CallRequest<E>,
) {
  const [items, setItems] = useState<z.output<E["answer"]>>();
  const [isFailed, setFailed] = useState(false);
  // The request as text: a new object with the same query is the same list.
  const requestKey = JSON.stringify(request);
  // biome-ignore lint/correctness/useExhaustiveDependencies: requestKey stands for request.
  const reload = useCallback(async () => {
    try {
      setItems(await callApi(endpoint, ...([request] as CallArgs<E>)));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [endpoint, requestKey]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, isFailed, reload };
}
