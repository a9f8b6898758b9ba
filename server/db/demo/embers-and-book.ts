// Original demo writing for Ember Verse, made for this project; no quotation of any other work.
// The demo's embers and book, beside its poems and tags (content.ts).

export interface DemoEmber {
  text: string;
  tags: string[];
}
export interface DemoBookPage {
  title: string;
  content: string;
}
export interface DemoBook {
  title: string;
  slug: string;
  blurb: string;
  buyUrl: string;
  pages: DemoBookPage[];
}

export const DEMO_EMBERS: DemoEmber[] = [
  { text: "You do not have to be finished to be welcome.", tags: ["Belonging"] },
  {
    text: "Every road you walked is still in your legs, teaching them how to carry you.",
    tags: ["Pilgrimage"],
  },
  {
    text: "Light a candle for the version of you who made it through last winter.",
    tags: ["Winter"],
  },
  { text: "A father's hands are mostly a place to land.", tags: ["Fatherhood"] },
  {
    text: "The sacred rarely knocks. It is usually already sitting at the table, waiting for you to notice.",
    tags: ["Sacred"],
  },
  {
    text: "Becoming is slow. Trees do it in rings you only see when something breaks them open.",
    tags: ["Becoming"],
  },
  { text: "Memory is a house with the lights left on.", tags: ["Memory"] },
  { text: "Let the leaves go. They were never the tree.", tags: ["Autumn", "Becoming"] },
  {
    text: "Say the name of someone you miss out loud today. Let the room hear it.",
    tags: ["Memory"],
  },
  { text: "Home is where someone has learned how you take your tea.", tags: ["Belonging"] },
  { text: "The pilgrim's secret: the destination was an excuse to walk.", tags: ["Pilgrimage"] },
  { text: "Waiting is a kind of faith with its coat still on.", tags: ["Advent"] },
  { text: "Every seed is a small argument with the dark, and most of them win.", tags: ["Spring"] },
  {
    text: "Children do not remember what you said. They remember where you stood.",
    tags: ["Fatherhood"],
  },
  { text: "Put the kettle on. Half of all wisdom begins there.", tags: [] },
  { text: "You are allowed to outgrow a room you once prayed to be let into.", tags: ["Becoming"] },
  {
    text: "Snow does not ask the garden's permission, and the garden does not hold it against the snow.",
    tags: ["Winter"],
  },
  {
    text: "Somebody kept a light on for you once. Keep one on for someone else.",
    tags: ["Belonging", "Sacred"],
  },
  {
    text: "The ache you feel on old roads is love that has nowhere else to go.",
    tags: ["Memory", "Pilgrimage"],
  },
  { text: "Gratitude is a way of looking that slowly becomes a way of seeing.", tags: ["Sacred"] },
  {
    text: "Fathers are built in the small hours, one patient breath at a time.",
    tags: ["Fatherhood"],
  },
  { text: "Today, walk as if the ground were glad of you. It is.", tags: ["Pilgrimage"] },
  { text: "You become what you practise. Practise kindness, even badly.", tags: ["Becoming"] },
  {
    text: "The smell of bread is a kind of prayer the whole street can join.",
    tags: ["Sacred", "Belonging"],
  },
  { text: "October keeps its best gold for the people who go outside.", tags: ["Autumn"] },
  { text: "Hold the door a moment longer. Someone is always running.", tags: [] },
  { text: "What you carry, you can also set down. Try it for an hour.", tags: ["Pilgrimage"] },
  { text: "A welcome is just a door that decided to stay open.", tags: ["Belonging"] },
  { text: "Old photographs are windows that only open inward.", tags: ["Memory"] },
  {
    text: "The dark before the longest night is also the dark before the light turns back.",
    tags: ["Advent", "Winter"],
  },
  {
    text: "Listen to your life the way you'd listen to rain on a roof: without needing it to stop.",
    tags: [],
  },
  {
    text: "The first warm day always feels like a rumour that turned out to be true.",
    tags: ["Spring"],
  },
  {
    text: "Teach your children the names of birds. It will outlast most of what you say.",
    tags: ["Fatherhood"],
  },
  { text: "Every threshold is a little altar. Pause on it.", tags: ["Sacred"] },
  { text: "Nobody arrives anywhere all at once.", tags: ["Becoming", "Pilgrimage"] },
  { text: "You belong to the people who remember your laugh.", tags: ["Belonging", "Memory"] },
  { text: "Frost writes on windows in a language only mornings can read.", tags: ["Winter"] },
  { text: "Leave room at the table for who you are becoming.", tags: ["Becoming", "Belonging"] },
  { text: "Wherever you are going, the sky went there first.", tags: ["Pilgrimage"] },
  { text: "Sit with one good line today. Let it be enough.", tags: [] },
];

export const DEMO_BOOK: DemoBook = {
  title: "The Shape of Belonging",
  slug: "the-shape-of-belonging",
  blurb:
    "Poems of kitchen tables and borrowed rooms, of fathers and rivers and the long roads home. The Shape of Belonging asks where we are held, and by whom, and finds the answer in the smallest rituals of ordinary days.",
  buyUrl: "https://example.com/books/the-shape-of-belonging",
  pages: [
    {
      title: "Dedication",
      content:
        "For everyone who set a plate down\nbefore I thought to ask.\n\nAnd for my father,\nwho kept the light on.",
    },
    {
      title: "Contents",
      content:
        "I. Tables\nThe Kitchen Table\nInventory of a Borrowed Room\n\nII. Roads\nRoad to the Far Chapel\nWhere the Road Bends\n\nIII. Lights\nAdvent Lamp\nLullaby for the Night Shift",
    },
    {
      title: "The Kitchen Table",
      content:
        "Before the house had a name for us\nthere was this table, scarred with bread knives\nand the rings of a hundred forgotten cups,\nwhere my mother read the letters twice.\n\nWhoever you are, pull out a chair.\nThe soup is thin but there is enough.\nBelonging is not a door that opens.\nIt is a plate set down before you ask.",
    },
    {
      title: "Doorstep",
      content:
        "Somebody swept this step\nevery morning for forty years.\nYou can see it in the stone:\na shallow place, like a held breath.\n\nStand on it. Go on.\nIt has been waiting\nfor the weight of someone\nwho intends to stay.",
    },
    {
      title: "Afterword",
      content:
        "These poems were written at a kitchen table,\nin borrowed rooms, and on long walks.\nIf one of them finds you,\nkeep it. It was always yours.",
    },
  ],
};
