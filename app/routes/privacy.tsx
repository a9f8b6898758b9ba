import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/privacy";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Privacy",
    description: "What this site counts, what it never keeps, and how to ask not to be counted.",
    path: pages.privacy,
  });
}

/**
 * What is counted, in plain words (docs/product/insights.md; docs/decisions/049-counting-without-
 * tracking.md). Every sentence here is a rule the counting code keeps.
 */
export default function Privacy() {
  const section = "flex flex-col gap-3";
  const heading = "font-serif text-2xl text-stone-900";
  return (
    <article className="mx-auto flex max-w-2xl flex-col gap-8 text-lg leading-relaxed text-stone-800">
      <h1 className="font-serif text-4xl text-stone-900">Privacy</h1>
      <p>
        This site counts how its poems are read, so the poet can see which poem travelled and which
        stanza moved people. It does so without cookies, without any script from another company,
        and without keeping anything that could tell one reader from another past the end of the
        day.
      </p>

      <section className={section} aria-labelledby="counted">
        <h2 id="counted" className={heading}>
          What is counted
        </h2>
        <ul className="list-disc pl-6">
          <li>Each page you open: one view for that page, on that day.</li>
          <li>
            How many different people visited each day, and each page. To tell two visits by the
            same person from visits by two people, the site mixes your network address and your
            browser's name with a value made fresh each day and the site's own secret, and keeps
            only the scrambled result, for that day only. Each page gets its own scrambled value, so
            nothing the site keeps links the pages one person read.
          </li>
          <li>
            Where you came from: only the name of the site that linked here (such as a search engine
            or a Mastodon server), or a <code>utm_source</code> tag in the link. Never the page you
            were on or what you searched for.
          </li>
          <li>
            How far a poem was read: when you leave a poem, your browser sends one small message
            listing which stanzas were on screen for at least two seconds, and which stanza you
            shared, if any. It counts only for a poem whose visit was counted that day, and once a
            visit: a later message may add stanzas you went on to read, never another reading.
          </li>
          <li>
            When a link preview of a stanza is made by an app (Mastodon, WhatsApp, Slack and
            others): which app, for which stanza.
          </li>
          <li>
            When a link in the weekly digest is followed: one click for that week's digest and that
            link, at most once a day from one network address. The link does not say who you are.
            Opening the email is not counted.
          </li>
        </ul>
        <p>
          So that nobody can inflate the numbers, one network address counts as at most five people
          a day (a household or an office), and at most 60 pages an hour; past that, nothing more
          from it is counted. The addresses of one IPv6 network count as one address.
        </p>
      </section>

      <section className={section} aria-labelledby="during-the-day">
        <h2 id="during-the-day" className={heading}>
          What is held during the day, and who can read it
        </h2>
        <ul className="list-disc pl-6">
          <li>
            In the server's memory, never written anywhere: your network address and your browser's
            name, until the next batch of counts (within 10 seconds), and your address with the
            browsers seen from it that day and its count of pages this hour, until the day is over.
          </li>
          <li>
            In the database, until the end of the day: the scrambled values, one set for the whole
            site, one for each page, one for each place visitors came from and one for each digest
            link; beside a poem's value, which of its stanzas that visit reached and shared; and a
            scrambled value of each address with how many people and pages it brought, with no page
            in it. The day's value is deleted with them, within 10 seconds of midnight.
          </li>
          <li>
            Nobody reads these through the site, the poet included: the poet sees only the day's
            numbers. Whoever runs the server and its database could read the sets, but without the
            site's secret, which is not in the database, they cannot check whether a given address
            is among them.
          </li>
          <li>
            Signing in, subscribing to the digest and sending a guest contribution are limited per
            network address (10 sign-in links in 15 minutes, 10 subscriptions or 5 contributions an
            hour). For that, the address is kept for the length of that window: in memory on a
            single server, or in the database on a site run with PostgreSQL, where it is deleted by
            the hourly clean-up after the window ends, so within two hours at most.
          </li>
        </ul>
      </section>

      <section className={section} aria-labelledby="never-kept">
        <h2 id="never-kept" className={heading}>
          What is never kept
        </h2>
        <p>
          Your network address, your browser's name and any cookie or identifier are never written
          into the site's records of what was read, nor into its logs. The day's value and the
          scrambled values are deleted when the day is over; what remains is only numbers per day,
          such as "12 people read this poem on Tuesday". Nothing is shared with anyone.
        </p>
      </section>

      <section className={section} aria-labelledby="not-counted">
        <h2 id="not-counted" className={heading}>
          Asking not to be counted
        </h2>
        <p>
          If your browser sends <strong>Global Privacy Control</strong> (<code>Sec-GPC: 1</code>) or{" "}
          <strong>Do Not Track</strong> (<code>DNT: 1</code>), nothing you do here is counted at
          all. Pages fetched ahead of time by your browser (prefetches) and visits by search engines
          and other robots are not counted either.
        </p>
        <p>
          If you sign in to echo, save or whisper on stanzas, those are kept with your account as
          you would expect; you can see them, and leave with all of them, on your{" "}
          <Link to={pages.account} className="text-ember-700 underline underline-offset-4">
            account page
          </Link>
          .
        </p>
      </section>
    </article>
  );
}
