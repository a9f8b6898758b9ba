// Original demo writing for Ember Verse, made for this project; no quotation of any other work.

export interface DemoPoem {
  title: string;
  slug: string;
  /** Each stanza is its lines joined by " / " (docs/product/reading.md, Stanza viewer). */
  stanzas: string[];
  tags: string[];
  coverAlt: string;
  coverPalette: [string, string];
  daysAgo: number;
  /**
   * A reading shipped with the demo (a short synthetic voice made once with espeak-ng, in this
   * folder), with where each stanza begins, so a new poet sees the voice read along.
   */
  reading?: { file: string; stanzaTimings: number[]; duration: number };
}

export const DEMO_TAGS: string[] = [
  "Becoming",
  "Belonging",
  "Fatherhood",
  "Pilgrimage",
  "Sacred",
  "Memory",
  "Autumn",
  "Winter",
  "Advent",
  "Spring",
];

export const DEMO_POEMS: DemoPoem[] = [
  {
    title: "The Kitchen Table",
    slug: "the-kitchen-table",
    stanzas: [
      "Before the house had a name for us / there was this table, scarred with bread knives / and the rings of a hundred forgotten cups, / where my mother read the letters twice",
      "Every chair is a different chair. / One rocks. One remembers a grandfather. / One was found on a curb in the rain / and carried home like a stray",
      "We do our sums here. We do our grief. / We spread the map of a road not taken / and smooth it flat with both hands / as if it might still be walked",
      "Whoever you are, pull out a chair. / The soup is thin but there is enough. / Belonging is not a door that opens. / It is a plate set down before you ask",
    ],
    tags: ["Belonging", "Memory"],
    coverAlt: "Warm lamplight pooling on a dark wooden surface",
    coverPalette: ["#b45309", "#3b1d0e"],
    daysAgo: 2,
  },
  {
    title: "What My Son Asked the River",
    slug: "what-my-son-asked-the-river",
    stanzas: [
      "He was four and the river was very old. / He asked it where it was going / and why it would not stay, / and the river said nothing, being a river",
      "I wanted to answer for it. / I wanted to say: the sea, the rain, the sea again, / the long loop of water that never truly leaves. / But he had not asked me",
      "So we sat on the cold stones / and let the question float downstream / past the alders and the drowned fence / toward whatever answers questions",
      "Years from now he will stand somewhere / and ask a harder thing of a quieter river. / I hope he remembers: / it is enough to sit beside the one who asks",
    ],
    tags: ["Fatherhood", "Becoming", "Memory"],
    coverAlt: "Blue-grey water moving past dark stones",
    coverPalette: ["#1e3a5f", "#0f172a"],
    daysAgo: 5,
  },
  {
    title: "Road to the Far Chapel",
    slug: "road-to-the-far-chapel",
    stanzas: [
      "We left before light, our boots still stiff with yesterday's mud, / the village asleep behind us like a dog by a fire, / and nobody spoke, because the road was doing the speaking / and we had come all this way to listen",
      "Mile four: a farmer lifting his hat. / Mile nine: an orchard with no one in it. / Mile twelve: my own heart, / louder than I had ever let it be",
      "The chapel, when we reached it, was smaller than the stories. / One candle. A swallow in the rafters. / A smell of stone and old rain / and the feeling of being expected",
      "I do not know what I prayed. / Something like thank you. Something like help. / Something like the sound a key makes / turning in a lock you had forgotten was yours",
      "The walk home was the same road / and not the same road at all",
    ],
    tags: ["Pilgrimage", "Sacred", "Becoming"],
    coverAlt: "A pale path climbing toward a small glowing window at dawn",
    coverPalette: ["#7c2d12", "#1c1917"],
    daysAgo: 9,
  },
  {
    title: "Small Liturgy for a Tuesday",
    slug: "small-liturgy-for-a-tuesday",
    stanzas: [
      "Blessed be the kettle, / which asks so little and sings anyway",
      "Blessed be the bus that came late / so I saw the heron",
      "Blessed be the neighbour's radio / bleeding an old song through the wall / so that for three minutes / we were the same age",
    ],
    tags: ["Sacred"],
    coverAlt: "Steam rising from a kettle in soft morning light",
    coverPalette: ["#a16207", "#422006"],
    daysAgo: 13,
    reading: {
      file: "small-liturgy-reading.mp3",
      stanzaTimings: [0.3, 5, 9.2],
      duration: 16.75,
    },
  },
  {
    title: "Teaching Her to Ride",
    slug: "teaching-her-to-ride",
    stanzas: [
      "One hand on the saddle, one on the small of her back, / I ran beside her down the lane / past the hedges and the patient cows, / promising I had not let go",
      "I had let go. / That is the whole secret of fathers. / We run beside you saying we are holding on / long after we have opened our hands",
      "She wobbled, and did not fall, / and looked back over her shoulder to find me / far behind her now, out of breath, / waving like a man on a pier",
      "Go on, I said, though she could not hear. / Go on. The road is yours. / I will be here at the gate / with the light on, for as long as there is light",
    ],
    tags: ["Fatherhood", "Becoming"],
    coverAlt: "A winding country lane under a late gold sky",
    coverPalette: ["#ca8a04", "#365314"],
    daysAgo: 16,
  },
  {
    title: "First Frost",
    slug: "first-frost",
    stanzas: [
      "The garden gave up overnight / without a sound, / every leaf outlined in white / like a thing being remembered",
      "I walked out in my father's coat, / still too big in the shoulders, / and the grass broke under my feet / like sugar",
      "Nothing is lost, he used to say. / It only changes where it keeps itself. / This morning I believe him: / the summer is in the frost, and the frost is in me",
    ],
    tags: ["Winter", "Memory", "Autumn"],
    coverAlt: "Frosted leaves glittering in blue early light",
    coverPalette: ["#475569", "#0c1220"],
    daysAgo: 21,
  },
  {
    title: "Inventory of a Borrowed Room",
    slug: "inventory-of-a-borrowed-room",
    stanzas: [
      "One bed that is not mine. / One window facing a wall. / One nail where someone's picture hung, / and a paler square to prove it",
      "A drawer with a single button in it. / A radiator that knocks at three. / A view, if I lean, / of a sliver of river and a crane",
      "I have lived in eleven rooms like this, / each one lent, each one returned. / I used to think I was homeless in them. / Now I think I was only practising",
      "Home, it turns out, is not the room. / It is the way you set your cup down / in the same place every morning / until the place begins to know you",
      "When I leave, I will leave the button. / Someone will need it more than I do",
    ],
    tags: ["Belonging", "Becoming"],
    coverAlt: "An empty room with a single window of grey light",
    coverPalette: ["#57534e", "#1c1917"],
    daysAgo: 26,
  },
  {
    title: "Advent Lamp",
    slug: "advent-lamp",
    stanzas: [
      "In the dark of the year we light one candle / and call it waiting",
      "Then two, against the longer dark. / Then three, as if arithmetic could hold back night. / Then four, and the room begins to believe us",
      "What are we waiting for? / A child, the old story says. / A door, says my grandmother. / A letter, says the girl at the window",
      "I think we are waiting to be the kind of people / who keep a light on for strangers. / Every year we come a little closer. / Every year the dark is a little less sure of itself",
    ],
    tags: ["Advent", "Sacred", "Winter"],
    coverAlt: "Four candle flames in a dark blue room",
    coverPalette: ["#1e1b4b", "#0a0a0a"],
    daysAgo: 31,
  },
  {
    title: "The Names We Carry",
    slug: "the-names-we-carry",
    stanzas: [
      "My grandmother had three names: / the one her mother gave her, / the one the border gave her, / and the one she chose at sixty, out loud, at dinner",
      "We laughed, then saw she meant it, / and stopped, and said it back to her, / and she looked at us as if / we had handed her a key",
      "I carry her names in my pocket like stones from a beach. / Some days they are heavy. / Some days I take them out / just to feel them warm in my hand",
      "Whoever you are, / you are allowed to choose your name / at sixty, or at six, or now, / and the table is allowed to say it back",
    ],
    tags: ["Memory", "Belonging", "Becoming", "Sacred"],
    coverAlt: "Smooth beach stones in a cupped palm of light",
    coverPalette: ["#9a3412", "#292524"],
    daysAgo: 38,
  },
  {
    title: "Pilgrim's Feet",
    slug: "pilgrims-feet",
    stanzas: [
      "Nobody tells you about the feet. / The blisters, yes, and the lamb's wool, / but not how your feet become a kind of scripture / you read every evening by torchlight",
      "Here is the day of the long descent. / Here is the cobble that turned my ankle. / Here is the river I crossed barefoot / because the bridge was gone",
      "A woman at the hostel knelt and wrapped them / without asking my name. / I have been blessed by bishops. / I have not been blessed like that",
      "When I got home I could not stop walking. / Round the block. Round the park. / My feet had learned something / the rest of me was still catching up to",
    ],
    tags: ["Pilgrimage", "Sacred"],
    coverAlt: "A dusty trail lit by a low orange sun",
    coverPalette: ["#c2410c", "#431407"],
    daysAgo: 44,
  },
  {
    title: "Apple Year",
    slug: "apple-year",
    stanzas: [
      "The old tree outdid itself this year, / as if it knew, / dropping more than we could gather / into the long grass for the wasps",
      "We made pies and chutney and a cider that failed. / We gave bags to the postman. / We left a crate by the gate / with a sign that said: take, it's all right",
      "My father, who planted it, / did not live to see a harvest like this. / I stood under it in October / and said his name to the branches",
      "They did not answer. They did not need to. / An apple fell, and then another, / the way a conversation goes on / after one of you has left the room",
    ],
    tags: ["Autumn", "Memory", "Fatherhood"],
    coverAlt: "Red apples scattered in long golden grass",
    coverPalette: ["#b91c1c", "#3f2a10"],
    daysAgo: 52,
  },
  {
    title: "Becoming Weather",
    slug: "becoming-weather",
    stanzas: [
      "I used to want to be a mountain: / certain, unmoved, photographed",
      "Now I would settle for weather. / To arrive. To change. / To be rain for a while and then, / without apology, sun",
      "The mountain never learns anything. / The weather learns everything / and forgets it by evening / and is not ashamed",
      "Let me be that. / Let me be the grey that softens into gold. / Let me be the wind that moves the wheat / and does not need the wheat to thank it",
    ],
    tags: ["Becoming", "Spring"],
    coverAlt: "Clouds breaking open over a green field",
    coverPalette: ["#0e7490", "#164e63"],
    daysAgo: 60,
  },
  {
    title: "Thaw",
    slug: "thaw",
    stanzas: [
      "It starts under the snow, / where nobody is looking: / a trickle, a darkening, / a small rehearsal of water",
      "Then the gutters begin to talk. / Then the robin, who never left. / Then the first green nonsense of the crocus / in a yard that had given up on it",
      "I have been frozen. You have too. / It did not happen all at once / and it will not end all at once. / Listen: the gutters are talking",
    ],
    tags: ["Spring", "Becoming"],
    coverAlt: "Purple crocus pushing through melting snow",
    coverPalette: ["#6d28d9", "#1e1b4b"],
    daysAgo: 70,
  },
  {
    title: "Lullaby for the Night Shift",
    slug: "lullaby-for-the-night-shift",
    stanzas: [
      "Sleep now, you who sleep by day / with the curtains pinned and the phone face-down, / while the rest of us push our carts and shout our greetings / as if the world had only one morning",
      "Sleep, nurse. Sleep, baker. Sleep, driver of the last bus / who waited for me once when I was running. / Sleep, cleaner of the empty offices, / who knows what every desk is hiding",
      "The city owes you a song / it has never thought to sing. / Here is a small one: / thank you, thank you, thank you",
      "And when you wake at four in the afternoon / to the smell of someone else's dinner, / may the light be kind, / may the kettle already be warm",
      "Sleep now. / We'll keep watch for a while",
    ],
    tags: ["Belonging", "Sacred"],
    coverAlt: "A city at dusk with a few lit windows",
    coverPalette: ["#312e81", "#111827"],
    daysAgo: 80,
  },
  {
    title: "Ten Rooms of My Father's House",
    slug: "ten-rooms-of-my-fathers-house",
    stanzas: [
      "The hall, where his coat still hangs / because none of us can be the one",
      "The kitchen, where he burned the toast / every single morning on purpose, / he said, for the smell",
      "The study, all maps and unpaid bills / and a jar of foreign coins / from countries that have changed their names",
      "The stairs, which creak on the fourth step. / I still skip it. / I am forty-one",
      "The bathroom, with his razor / rusting politely on the shelf",
      "My old room, which he kept / exactly as I left it at eighteen, / as if I might come back and be eighteen",
      "His room, where I cannot go yet",
      "The garden shed, which smells of oil and apples / and patience",
      "The attic, full of boxes labelled in his hand: / 'Christmas', 'Tax', 'Don't throw away', 'Yours'",
      'And the room I did not know he had built: / the one inside me, / where he sits in his good chair / and says, "Well, then. Tell me everything."',
    ],
    tags: ["Fatherhood", "Memory", "Belonging"],
    coverAlt: "A lit doorway at the end of a long dim hall",
    coverPalette: ["#92400e", "#1c1917"],
    daysAgo: 95,
  },
  {
    title: "Where the Road Bends",
    slug: "where-the-road-bends",
    stanzas: [
      "You can't see what's past the bend. / That's the point of it. / That's why you keep walking",
      "I've stood at a hundred bends / and guessed wrong every time: / a town, a lake, a dog that walked with me for a day, / a stranger who taught me the word for bread",
      "Don't ask the map. The map is sure of itself. / Ask the bend, which is only sure / that something is coming, / and that you will be there to meet it",
    ],
    tags: ["Pilgrimage", "Becoming"],
    coverAlt: "A road curving out of sight between hills",
    coverPalette: ["#4d7c0f", "#1a2e05"],
    daysAgo: 110,
  },
];
