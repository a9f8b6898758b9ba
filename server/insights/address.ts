/**
 * An address as the per-address limits count it (docs/product/limits.md, Counting readers): an
 * IPv4 address as it is, an IPv4 address mapped into IPv6 as that IPv4 address, and an IPv6
 * address by its first 64 bits, the network one household or one host is given, so stepping
 * through the addresses of one's own network is still one address.
 */
export function addressKeyOf(address: string): string {
  if (!address.includes(":")) return address;
  const lower = address.toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const [head = "", tail] = lower.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? 0 : Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = [...headGroups, ...Array<string>(zeros).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Visitors one address brings in a day: a household or an office, not a crowd. */
export const VISITORS_PER_ADDRESS = 5;
/** Views one address may add in an hour of the clock: several readers' pace, not a script's. */
export const VIEWS_PER_ADDRESS_HOUR = 60;
/** Addresses remembered today on this instance; past it, those already written are forgotten. */
const ADDRESSES_REMEMBERED = 100_000;

/** One address today on this instance: the address stays in memory only, until the day ends. */
interface AddressToday {
  agents: Set<string>;
  /** Every instance's visitors from it reached VISITORS_PER_ADDRESS (the day's row says). */
  full: boolean;
  hour: number;
  views: number;
  /** Not yet written to its row. */
  newVisitors: number;
  newViews: number;
}

/** An address's new numbers, taken for a batch, as its row in `day_addresses` adds them. */
export interface TakenAddress {
  day: string;
  hash: string;
  visitors: number;
  hour: number;
  views: number;
  state: AddressToday;
}

/** Past ADDRESSES_REMEMBERED, those already written go first, then all of them. */
function makeRoom(addresses: Map<string, AddressToday>) {
  if (addresses.size >= ADDRESSES_REMEMBERED) {
    for (const [key, state] of addresses) {
      if (state.newVisitors === 0 && state.newViews === 0) addresses.delete(key);
    }
    if (addresses.size >= ADDRESSES_REMEMBERED) addresses.clear();
  }
}

/**
 * The day's addresses on this instance (docs/decisions/055-a-visit-per-page-and-a-crowd-per-
 * address.md): which views and visitors each may still add, from what this instance saw and
 * what every instance's rows said at the last batch.
 */
export function createAddressBook() {
  let today = "";
  const addresses = new Map<string, AddressToday>();

  function stateOf(day: string, hour: number, address: string): AddressToday {
    if (today !== day) {
      addresses.clear();
      today = day;
    }
    let known = addresses.get(address);
    if (!known) {
      makeRoom(addresses);
      known = { agents: new Set(), full: false, hour, views: 0, newVisitors: 0, newViews: 0 };
      addresses.set(address, known);
    }
    if (known.hour !== hour) {
      known.hour = hour;
      known.views = 0;
    }
    return known;
  }

  return {
    /**
     * Whether a view from this address and user agent counts, and if so it is taken into
     * account: not past a reader's pace this hour, nor from a user agent beyond the household.
     */
    admit(day: string, hour: number, address: string, userAgent: string): boolean {
      const state = stateOf(day, hour, address);
      if (state.views >= VIEWS_PER_ADDRESS_HOUR) return false;
      if (!state.agents.has(userAgent)) {
        if (state.full || state.agents.size >= VISITORS_PER_ADDRESS) return false;
        state.agents.add(userAgent);
        state.newVisitors += 1;
      }
      state.views += 1;
      state.newViews += 1;
      return true;
    },

    /** The day the addresses are of ('' before any), and each with something new, taken. */
    take(hashOf: (address: string) => string): TakenAddress[] {
      const taken: TakenAddress[] = [];
      for (const [address, state] of addresses) {
        if (state.newVisitors === 0 && state.newViews === 0) continue;
        taken.push({
          day: today,
          hash: hashOf(address),
          visitors: state.newVisitors,
          hour: state.hour,
          views: state.newViews,
          state,
        });
        state.newVisitors = 0;
        state.newViews = 0;
      }
      return taken.sort((a, b) => (a.hash < b.hash ? -1 : 1));
    },

    get day() {
      return today;
    },

    /** A failed batch's numbers, back for the next one. */
    putBack(taken: TakenAddress[]) {
      for (const row of taken) {
        row.state.newVisitors += row.visitors;
        row.state.newViews += row.views;
      }
    },

    /** Every instance's totals for the addresses a batch wrote: a full one takes no more. */
    learn(
      taken: TakenAddress[],
      totals: Array<{ hash: string; visitors: number; hour: number; views: number }>,
    ) {
      const byHash = new Map(taken.map((row) => [row.hash, row.state]));
      for (const total of totals) {
        const state = byHash.get(total.hash);
        if (!state) continue;
        if (total.visitors >= VISITORS_PER_ADDRESS) state.full = true;
        if (total.hour === state.hour) {
          state.views = Math.max(state.views, total.views + state.newViews);
        }
      }
    },

    /** Forgets the addresses of a day that is over. */
    forgetBefore(day: string) {
      if (today && today < day) {
        addresses.clear();
        today = "";
      }
    },
  };
}

export type AddressBook = ReturnType<typeof createAddressBook>;
