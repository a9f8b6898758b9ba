import { useCallback, useEffect, useState } from "react";
import { apiRequest } from "../../lib/api.ts";

/**
 * A list the admin page reads from the API (after hydration, with the admin's session), and
 * reloads after each change so the tab shows what the server now holds.
 */
export function useAdminList<T>(url: string) {
  const [items, setItems] = useState<T[]>();
  const [isFailed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      setItems(await apiRequest<T[]>("GET", url));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [url]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, isFailed, reload };
}
