import { endpoints } from "../../../common/endpoints.ts";
import * as paths from "../../../common/paths.ts";
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
      <h2 id="fediverse-deliveries" className="font-serif text-2xl">
        Deliveries
      </h2>
      <p className="mt-1 text-sm text-stone-700">
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
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-300 text-stone-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Poem
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Sent
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Retrying
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Failed
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Last sent
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((poem) => (
                <tr key={poem.poemId} className="border-b border-stone-200">
                  <td className="py-2 pr-4">
                    {poem.slug && poem.title ? (
                      <a
                        href={paths.poem(poem.slug)}
                        className="text-ember-700 underline underline-offset-4"
                      >
                        {poem.title}
                      </a>
                    ) : (
                      <span className="text-stone-500">Poem removed</span>
                    )}
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums">{poem.sent}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{poem.retrying}</td>
                  <td
                    className={`py-2 pr-4 text-right tabular-nums ${poem.failed > 0 ? "text-red-700" : ""}`}
                  >
                    {poem.failed}
                  </td>
                  <td className="py-2 text-stone-600">
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
