import type { GuestVoice } from "../../common/guest-voices.ts";

/** The voice's avatar, or their initial when they have none (docs/product/reading.md). */
export function GuestVoiceAvatar({
  voice,
  size,
}: {
  voice: Pick<GuestVoice, "name" | "avatarUrl">;
  size: "small" | "large";
}) {
  const dimension = size === "large" ? "h-24 w-24 text-3xl" : "h-14 w-14 text-xl";
  return voice.avatarUrl ? (
    <img
      src={voice.avatarUrl}
      alt={voice.name}
      width={96}
      height={96}
      className={`${dimension} rounded-full border-2 border-white object-cover shadow`}
    />
  ) : (
    <span
      role="img"
      aria-label={voice.name}
      className={`${dimension} flex items-center justify-center rounded-full bg-ember-700 font-serif text-white shadow`}
    >
      {voice.name.charAt(0)}
    </span>
  );
}
