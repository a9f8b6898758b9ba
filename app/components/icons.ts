import { createElement } from "react";

/**
 * The site's icons: Lucide's drawings (https://lucide.dev, ISC licence, from lucide-react 1.75),
 * drawn here as plain `<svg>`s. Lucide's own component carries a runtime (a context, size and
 * stroke options, class building) that every page's JavaScript paid for and no icon here uses.
 * An icon is decoration beside its label, so it is always hidden from assistive technology.
 */
type Drawing = [tag: "circle" | "line" | "path" | "rect", attributes: Record<string, string>][];

interface IconProps {
  className?: string;
  "aria-hidden"?: boolean | "true";
}

/** One drawing as an `<svg>` the size of a letter's box, stroked in the text's colour. */
function draw(drawing: Drawing, { className }: IconProps) {
  return createElement(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      width: 24,
      height: 24,
      viewBox: "0 0 24 24",
      fill: "none",
      stroke: "currentColor",
      strokeWidth: 2,
      strokeLinecap: "round",
      strokeLinejoin: "round",
      className,
      "aria-hidden": true,
    },
    drawing.map(([tag, attributes], index) => createElement(tag, { key: index, ...attributes })),
  );
}

export const ALargeSmall = (props: IconProps) =>
  draw(
    [
      ["path", { d: "m15 16 2.536-7.328a1.02 1.02 1 0 1 1.928 0L22 16" }],
      ["path", { d: "M15.697 14h5.606" }],
      ["path", { d: "m2 16 4.039-9.69a.5.5 0 0 1 .923 0L11 16" }],
      ["path", { d: "M3.304 13h6.392" }],
    ],
    props,
  );
export const ArrowDown = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M12 5v14" }],
      ["path", { d: "m19 12-7 7-7-7" }],
    ],
    props,
  );
export const ArrowLeft = (props: IconProps) =>
  draw(
    [
      ["path", { d: "m12 19-7-7 7-7" }],
      ["path", { d: "M19 12H5" }],
    ],
    props,
  );
export const ArrowUp = (props: IconProps) =>
  draw(
    [
      ["path", { d: "m5 12 7-7 7 7" }],
      ["path", { d: "M12 19V5" }],
    ],
    props,
  );
export const AudioLines = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M2 10v3" }],
      ["path", { d: "M6 6v11" }],
      ["path", { d: "M10 3v18" }],
      ["path", { d: "M14 8v7" }],
      ["path", { d: "M18 5v13" }],
      ["path", { d: "M22 10v3" }],
    ],
    props,
  );
export const BookOpen = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M12 5v16" }],
      [
        "path",
        {
          d: "M20.001 19A2 2 0 0022 17V5a2 2 0 00-1.999-2L16 3.002A5 5 0 0012 5a5 5 0 00-4-2H4a2 2 0 00-2 2v12a2 2 0 001.999 2H8a5 5 0 014 2 5 5 0 014-2z",
        },
      ],
    ],
    props,
  );
export const Bookmark = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M17 3a2 2 0 0 1 2 2v15a1 1 0 0 1-1.496.868l-4.512-2.578a2 2 0 0 0-1.984 0l-4.512 2.578A1 1 0 0 1 5 20V5a2 2 0 0 1 2-2z",
        },
      ],
    ],
    props,
  );
export const BookmarkCheck = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M17 3a2 2 0 0 1 2 2v15a1 1 0 0 1-1.496.868l-4.512-2.578a2 2 0 0 0-1.984 0l-4.512 2.578A1 1 0 0 1 5 20V5a2 2 0 0 1 2-2z",
        },
      ],
      ["path", { d: "m9 10 2 2 4-4" }],
    ],
    props,
  );
export const Check = (props: IconProps) => draw([["path", { d: "M20 6 9 17l-5-5" }]], props);
export const ChevronLeft = (props: IconProps) => draw([["path", { d: "m15 18-6-6 6-6" }]], props);
export const ChevronRight = (props: IconProps) => draw([["path", { d: "m9 18 6-6-6-6" }]], props);
export const CircleUserRound = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M17.925 20.056a6 6 0 0 0-11.851.001" }],
      ["circle", { cx: "12", cy: "11", r: "4" }],
      ["circle", { cx: "12", cy: "12", r: "10" }],
    ],
    props,
  );
export const Cloud = (props: IconProps) =>
  draw([["path", { d: "M17.5 19H9a7 7 0 1 1 6.71-9h1.79a4.5 4.5 0 1 1 0 9Z" }]], props);
export const Copy = (props: IconProps) =>
  draw(
    [
      ["rect", { width: "14", height: "14", x: "8", y: "8", rx: "2", ry: "2" }],
      ["path", { d: "M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" }],
    ],
    props,
  );
export const Download = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M12 15V3" }],
      ["path", { d: "M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" }],
      ["path", { d: "m7 10 5 5 5-5" }],
    ],
    props,
  );
export const ExternalLink = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M15 3h6v6" }],
      ["path", { d: "M10 14 21 3" }],
      ["path", { d: "M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" }],
    ],
    props,
  );
export const Feather = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M14.086 18.412A2 2 0 0112.67 19H5v-7.672a2 2 0 01.586-1.414L11.75 3.75a6 6 0 118.49 8.49z",
        },
      ],
      ["path", { d: "M16 8 2 22" }],
      ["path", { d: "M17.488 15H9" }],
    ],
    props,
  );
export const Flame = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M12 3q1 4 4 6.5t3 5.5a1 1 0 0 1-14 0 5 5 0 0 1 1-3 1 1 0 0 0 5 0c0-2-1.5-3-1.5-5q0-2 2.5-4",
        },
      ],
    ],
    props,
  );
export const GripVertical = (props: IconProps) =>
  draw(
    [
      ["circle", { cx: "9", cy: "12", r: "1" }],
      ["circle", { cx: "9", cy: "5", r: "1" }],
      ["circle", { cx: "9", cy: "19", r: "1" }],
      ["circle", { cx: "15", cy: "12", r: "1" }],
      ["circle", { cx: "15", cy: "5", r: "1" }],
      ["circle", { cx: "15", cy: "19", r: "1" }],
    ],
    props,
  );
export const HardDrive = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M10 16h.01" }],
      [
        "path",
        {
          d: "M2.212 11.577a2 2 0 0 0-.212.896V18a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-5.527a2 2 0 0 0-.212-.896L18.55 5.11A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z",
        },
      ],
      ["path", { d: "M21.946 12.013H2.054" }],
      ["path", { d: "M6 16h.01" }],
    ],
    props,
  );
export const Headphones = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M3 14h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-7a9 9 0 0 1 18 0v7a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3",
        },
      ],
    ],
    props,
  );
export const ImageUp = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M10.3 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v10l-3.1-3.1a2 2 0 0 0-2.814.014L6 21",
        },
      ],
      ["path", { d: "m14 19.5 3-3 3 3" }],
      ["path", { d: "M17 22v-5.5" }],
      ["circle", { cx: "9", cy: "9", r: "2" }],
    ],
    props,
  );
export const Link2 = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M9 17H7A5 5 0 0 1 7 7h2" }],
      ["path", { d: "M15 7h2a5 5 0 1 1 0 10h-2" }],
      ["line", { x1: "8", x2: "16", y1: "12", y2: "12" }],
    ],
    props,
  );
export const LoaderCircle = (props: IconProps) =>
  draw([["path", { d: "M21 12a9 9 0 1 1-6.219-8.56" }]], props);
export const Menu = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M4 5h16" }],
      ["path", { d: "M4 12h16" }],
      ["path", { d: "M4 19h16" }],
    ],
    props,
  );
export const MessageCircle = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M2.992 16.342a2 2 0 0 1 .094 1.167l-1.065 3.29a1 1 0 0 0 1.236 1.168l3.413-.998a2 2 0 0 1 1.099.092 10 10 0 1 0-4.777-4.719",
        },
      ],
    ],
    props,
  );
export const Search = (props: IconProps) =>
  draw(
    [
      ["path", { d: "m21 21-4.34-4.34" }],
      ["circle", { cx: "11", cy: "11", r: "8" }],
    ],
    props,
  );
export const Send = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M14.536 21.686a.5.5 0 0 0 .937-.024l6.5-19a.496.496 0 0 0-.635-.635l-19 6.5a.5.5 0 0 0-.024.937l7.93 3.18a2 2 0 0 1 1.112 1.11z",
        },
      ],
      ["path", { d: "m21.854 2.147-10.94 10.939" }],
    ],
    props,
  );
export const Share2 = (props: IconProps) =>
  draw(
    [
      ["circle", { cx: "18", cy: "5", r: "3" }],
      ["circle", { cx: "6", cy: "12", r: "3" }],
      ["circle", { cx: "18", cy: "19", r: "3" }],
      ["line", { x1: "8.59", x2: "15.42", y1: "13.51", y2: "17.49" }],
      ["line", { x1: "15.41", x2: "8.59", y1: "6.51", y2: "10.49" }],
    ],
    props,
  );
export const Sparkles = (props: IconProps) =>
  draw(
    [
      [
        "path",
        {
          d: "M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z",
        },
      ],
      ["path", { d: "M20 2v4" }],
      ["path", { d: "M22 4h-4" }],
      ["circle", { cx: "4", cy: "20", r: "2" }],
    ],
    props,
  );
export const Trash2 = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M10 11v6" }],
      ["path", { d: "M14 11v6" }],
      ["path", { d: "M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6" }],
      ["path", { d: "M3 6h18" }],
      ["path", { d: "M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2" }],
    ],
    props,
  );
export const TriangleAlert = (props: IconProps) =>
  draw(
    [
      ["path", { d: "m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" }],
      ["path", { d: "M12 9v4" }],
      ["path", { d: "M12 17h.01" }],
    ],
    props,
  );
export const X = (props: IconProps) =>
  draw(
    [
      ["path", { d: "M18 6 6 18" }],
      ["path", { d: "m6 6 12 12" }],
    ],
    props,
  );
