import { type ReactElement, useEffect, useRef, useState } from "react";
import { buildCoverSrcSet } from "../../common/cover-image.ts";
import { BookOpen } from "./icons.ts";

interface CoverImageProps {
  src: string | null;
  alt: string;
  width?: number | null;
  height?: number | null;
  className?: string;
  /**
   * What a missing cover, or one that fails to load, becomes: a book icon (book cards), nothing
   * (poem page), or the element given (a poem card's typographic cover).
   */
  fallback: "icon" | "hidden" | ReactElement;
  loading?: "lazy" | "eager";
  /** How wide the image is shown, so the browser picks the smallest variant that is sharp. */
  sizes: string;
}

/**
 * A cover with its failure rules (docs/product/reading.md). A load error before hydration is caught
 * too: the image is checked once mounted.
 */
export function CoverImage({
  src,
  alt,
  width,
  height,
  className,
  fallback,
  loading = "lazy",
  sizes,
}: CoverImageProps) {
  const [isBroken, setBroken] = useState(!src);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setBroken(true);
  }, []);

  if (isBroken) {
    if (typeof fallback === "object") return fallback;
    return fallback === "icon" ? (
      <div
        className={`flex items-center justify-center bg-stone-200 text-stone-500 ${className ?? ""}`}
        data-testid="cover-fallback"
      >
        <BookOpen aria-hidden="true" className="h-10 w-10" />
      </div>
    ) : null;
  }
  return (
    <img
      ref={image}
      src={src ?? undefined}
      srcSet={buildCoverSrcSet(src, width)}
      sizes={sizes}
      alt={alt}
      width={width ?? undefined}
      height={height ?? undefined}
      loading={loading}
      // An eager cover is the page's main image and its largest paint: fetched before the
      // scripts and decoded with the page.
      fetchPriority={loading === "eager" ? "high" : undefined}
      decoding={loading === "eager" ? undefined : "async"}
      onError={() => setBroken(true)}
      className={className}
    />
  );
}
