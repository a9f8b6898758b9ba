// Three fictional guest poets with original poems, written for this project
// (docs/product/reading.md, Guest voices): the built-in voices every fresh site has. The guest
// voices live in the database; its guest-voice migration seeds these three (a test checks that
// it holds exactly these), and the poet edits, hides or reorders them like any other.

export interface GuestVoice {
  slug: string;
  name: string;
  handle: string;
  socialUrl: string;
  avatarUrl: string | null;
  headerImageUrl: string | null;
  bio: string;
  title: string;
  excerpt: [string, string, string];
  /** Stanzas, their lines joined by "\n". */
  body: string[];
  otherWorks: { title: string; slug: string }[];
}

export const GUEST_VOICES: GuestVoice[] = [
  {
    slug: "maren-hollis",
    name: "Maren Hollis",
    handle: "@marenwrites",
    socialUrl: "https://example.com/maren-hollis",
    avatarUrl: "/guest-voices/maren-hollis-avatar.svg",
    headerImageUrl: "/guest-voices/maren-hollis-header.svg",
    bio: "Maren keeps bees and a notebook on a windy island. She writes about small labours and the weather inside them.",
    title: "What the Hive Knows",
    excerpt: [
      "All summer the hive argues with the wind",
      "and wins, a little, every day,",
      "by staying exactly where it is.",
    ],
    body: [
      "All summer the hive argues with the wind\nand wins, a little, every day,\nby staying exactly where it is.",
      "I lift the lid and the hum rises to meet me\nlike a room of people\nwho were talking about me kindly.",
      "I have tried to be the bee that leaves.\nI have tried to be the bee that stays.\nThe hive does not mind which I am.\nIt only asks that I come home with something sweet.",
    ],
    otherWorks: [
      { title: "Salt Year", slug: "salt-year" },
      { title: "Inventory of Gulls", slug: "inventory-of-gulls" },
    ],
  },
  {
    slug: "tobias-okafor-reyes",
    name: "Tobias Okafor-Reyes",
    handle: "@tobias.verse",
    socialUrl: "https://example.com/tobias",
    avatarUrl: null,
    headerImageUrl: null,
    bio: "Tobias drives the night bus and writes between stops. His poems are about cities after midnight and the people who keep them.",
    title: "Last Stop, Riverside",
    excerpt: [
      "The bus sighs at the end of the line",
      "as if it, too, had somewhere",
      "it would rather be.",
    ],
    body: [
      "The bus sighs at the end of the line\nas if it, too, had somewhere\nit would rather be.",
      "One passenger left: a girl asleep\nwith her head against the window,\nher stop three stops behind us.",
      "I let the engine run.\nI let the heater hum.\nThe timetable can wait for a dream to finish.",
      "When she wakes I'll say, It's all right.\nWe'll go back round.\nEverybody misses their stop once.",
    ],
    otherWorks: [{ title: "Depot Psalm", slug: "depot-psalm" }],
  },
  {
    slug: "ines-calloway",
    name: "Inès Calloway",
    handle: "@ines.calloway",
    socialUrl: "https://example.com/ines",
    avatarUrl: "/guest-voices/ines-calloway-avatar.svg",
    headerImageUrl: null,
    bio: "Inès is a translator and a grandmother of four. She writes in the gaps between two languages.",
    title: "Two Words for Home",
    excerpt: [
      "In my mother's tongue the word for home",
      "is the same as the word for hearth.",
      "In yours, it is the same as the door.",
    ],
    body: [
      "In my mother's tongue the word for home\nis the same as the word for hearth.\nIn yours, it is the same as the door.",
      "I have lived sixty years between them,\nkeeping a fire going\nin a house that was always opening.",
      "Now my grandchildren ask me which is right.\nBoth, I tell them.\nThe fire is how you stay. The door is how they find you.",
    ],
    otherWorks: [],
  },
];
