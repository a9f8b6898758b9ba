import { Link } from "react-router";

/** A page's own not-found state (poem, theme, book, guest voice): a title, a line, a way back. */
export function NotFoundState({
  title,
  text,
  backTo,
  backLabel,
}: {
  title: string;
  text?: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl">{title}</h1>
      {text && <p className="mt-3 text-stone-700">{text}</p>}
      <Link
        to={backTo}
        className="mt-6 inline-block rounded-full bg-ember-700 px-5 py-2 text-white hover:bg-ember-800"
      >
        {backLabel}
      </Link>
    </section>
  );
}
