import { endpoints } from "../../../common/endpoints.ts";
import type { PoemDeliveryState } from "../../../common/schemas/fediverse-delivery.ts";
import { useAdminList } from "./use-admin-list.ts";

const WHAT_WAS_SENT: Record<PoemDeliveryState["lastActivity"]["type"], string> = {
  Create: "Published",
  Update: "Edit sent",
  Delete: "Removal sent",
};

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * What followers on the fediverse were sent of each poem, and how far it got
 * (docs/product/fediverse-delivery.md): deliveries to their servers sent, still being retried,
 * or given up, and the latest thing sent.
 */
export function FediverseDeliveries() {
  const { items, isFailed } = useAdminList(endpoints.fediverseDeliveries);
  return (
    <section aria-labelledby="fediverse-deliveries" className="mt-8">
      <h2 id="fediverse-deliveries" className="font-serif text-xl">
        Deliveries
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Each published poem goes to every follower's server; a server that is down is tried again
        for two days.
      </p>
      {isFailed ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          The delivery state could not be loaded.
        </p>
      ) : !items ? null : items.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600">No poem has been sent to followers yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-lg border border-stone-300 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Poem
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Sent
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Retrying
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Failed
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Last sent
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((poem) => (
                <tr key={poem.poemId} className="border-b border-stone-100 last:border-0">
                  <td className="px-3 py-2">
                    {poem.slug && poem.title ? (
                      <a href={`/poetry/${poem.slug}`} className="underline underline-offset-2">
                        {poem.title}
                      </a>
                    ) : (
                      <span className="text-stone-500">Poem removed</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{poem.sent}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{poem.retrying}</td>
                  <td
                    className={`px-3 py-2 text-right tabular-nums ${poem.failed > 0 ? "text-red-700" : ""}`}
                  >
                    {poem.failed}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap text-stone-600">
                    {WHAT_WAS_SENT[poem.lastActivity.type]}, {when.format(poem.lastActivity.at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
