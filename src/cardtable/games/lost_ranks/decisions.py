"""The Lost Ranks heuristic's decisions, written once for two runners.

Plain functions over ints, 53-bit card masks (bit ``c`` = card ``c``, 52 the Spy, the
engine's layout) and short lists — the subset numba compiles.
:mod:`cardtable.games.lost_ranks.heuristic` calls them as ordinary Python from a seat's
view; :mod:`cardtable.games.lost_ranks.kernel` compiles the very same functions with
``numba.njit`` for its heuristic play-outs.  The strategy is described in the
heuristic's module docstring.

What the seat knows is one list of ints, the *knowledge* (slots below): its seat, the
players, trump, Force Strength, its hand, the cards it has not seen (``UNSEEN``: not in
its hand, not played, not the Trump Card, not a phantom or drawn card it can see), the
cards still in play (``LIVE``: not played, not the Trump Card), the trick so far, each
seat's army, the voids each seat has shown (LR-7, LR-20, 4-bit suit sets), the real hand
sizes and, with 2 players, its own phantom deck and the opponent's (top first, -1 for a
face-down card, LR-12 … LR-14).  Never another seat's hidden cards.

The hypergeometric chances come from one table, :func:`avoid_table` (``AVOID[u, size,
k]``: a hidden hand of ``size`` cards drawn from ``u`` unseen ones holds none of ``k``
given cards), made once by the runner and passed in.

Seat 0 plays last to a trick of the Spy, 5♣ (its partner's) and K♣; it holds A♣ and 2♣,
hearts are trumps:

>>> from cardtable.cards import parse_french
>>> k = [0] * KNOWLEDGE
>>> k[ME], k[PLAYERS], k[TRUMP], k[LED], k[TRICK_N] = 0, 4, 2, 0, 3
>>> k[TRICK_SEAT: TRICK_SEAT + 3] = [1, 2, 3]
>>> k[TRICK_CARD: TRICK_CARD + 3] = [SPY, parse_french("5C"), parse_french("KC")]
>>> k[ARMY: ARMY + 4] = [0, 1, 0, 1]
>>> k[HAND] = 1 << parse_french("AC") | 1 << parse_french("2C")
>>> k[SIZES: SIZES + 4] = [2, 1, 1, 1]
>>> legal = sorted([parse_french("AC"), parse_french("2C")])
>>> table, work = avoid_table(), [0.0] * WORK
>>> legal[choose(k, legal, [0.0, 0.0], table, work)] == parse_french("AC")  # it takes the Spy
True
>>> round(value_four(k, parse_french("AC"), table, work) - value_four(k, parse_french("2C"), table, work), 2)
3.4
"""

from __future__ import annotations

from typing import Final

from cardtable.games.lost_ranks.rules import SUIT_COLOUR

SPY: Final = 52
DRAW: Final = 53
PHANTOM_BASE: Final = 54
JACK: Final = 9
"""The rank index of a Jack (ranks 0 = two … 12 = ace)."""
JACKS: Final = sum(1 << s * 13 + JACK for s in range(4))
"""The mask of the four Jacks."""
ME, PLAYERS, TRUMP, FORCE, HAND, UNSEEN, LIVE, LED, TRICK_N = range(9)
"""Knowledge slots: the seat deciding, the players (2 or 4), the trump suit, Force
Strength (LR-16), the seat's hand, the unseen and the live cards (masks), the led suit
(-1 none yet), the cards in the trick."""
TRICK_SEAT, TRICK_CARD, ARMY, VOIDS, SIZES = 9, 13, 17, 21, 25
"""Four slots each: the trick's ``i``-th seat and card, each seat's army (0 red, 1
black), voids and real hand size."""
MY_PHANTOM_N, MY_PHANTOM, OPP_PHANTOM_N, OPP_PHANTOM = 29, 30, 39, 40
"""2 players: the size and the cards (nine slots, top first) of the seat's own phantom
deck and of the opponent's (-1 for a face-down card)."""
KNOWLEDGE: Final = 49
"""Slots of the knowledge."""
MAX_SIZE: Final = 17
"""The largest hidden hand (a 2-player hand, LR-12)."""

GUARD_COST: Final = 0.3
RANK_COST: Final = 0.05
TRUMP_COST: Final = 0.5
MASTER_COST: Final = 0.15
SPY_KEEP: Final = 0.7
OWN_JACK_KEEP: Final = 1.0
ENEMY_JACK_KEEP: Final = -0.3
FORCED_WEIGHT: Final = 1.0
ENEMY_FIGHT: Final = 0.4
"""Chance that a later enemy seat puts its best card on the trick (when it does not, the
trick is as if it could not beat it): opponents do not always find the card that wins."""
FUTURE_WEIGHT: Final = 0.125
DUMP_WEIGHT: Final = 1.0
JACK_LEAD_PENALTY: Final = 1.0
KEEP_FADE: Final = 8
"""With fewer cards than this in hand, the Spy and the own active Jacks are kept for a
partner's trick less and less: late in a round the chances to feed them run out and
the last card is forced into whatever trick comes."""
TRUMP_LEAD: Final = 0.6
TWO_LEAD_VALUE: Final = 0.2
"""Command of Two: worth of leading the next trick."""
TWO_LOST_DUMP: Final = 1.8
"""Command of Two: what a soldier the opponent dumps on my led Jack costs me (I would
otherwise capture it when it is played, LR-15)."""
TWO_VOID_BONUS: Final = 0.3
Q_JACK: Final = 0.15
"""Chance that an enemy active Jack kept for later is taken by its army after all."""
D_SPY: Final = 0.8
"""Scale of the chance that the Spy kept for later falls on a Jack led by the opponent."""
NOISE: Final = 1e-6
"""Scale of the runner's tie-breaking numbers."""

TABLES: Final = ("SUIT_COLOUR", "PAIRS")
"""The module's lookup tables (the kernel compiles them as arrays)."""

B, S, SJ, T, Y, J, O = range(7)
"""How an answer card meets a lead: beats it in suit, follows without beating, is the led
suit's Jack, trumps, is the Spy, another Jack, anything else."""


# --- cards and chances --------------------------------------------------------------------


def bit_count(x: int) -> int:
    """Set bits of ``x`` (``x >= 0``)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def suit_ranks(mask: int, suit: int) -> int:
    """The 13-bit ranks of ``mask``'s cards of ``suit``."""
    return mask >> 13 * suit & 0x1FFF


def avoid_table() -> list[float]:
    """``AVOID[(u * (MAX_SIZE + 1) + size) * 53 + k]``: the chance that a hidden hand of
    ``size`` cards drawn from ``u`` unseen ones holds none of ``k`` given cards (exact
    binomials, divided once)."""
    out = [0.0] * (53 * (MAX_SIZE + 1) * 53)
    for u in range(53):
        for size in range(MAX_SIZE + 1):
            combs = [0] * 54  # combs[m] = C(m, size)
            c = 1
            for m in range(size, 54):
                combs[m] = c
                c = c * (m + 1) // (m + 1 - size)
            total = combs[u] if u >= size else 1
            for k in range(u + 1):
                if u - k >= size:
                    out[(u * (MAX_SIZE + 1) + size) * 53 + k] = combs[u - k] / total
    return out


def avoid(table: list[float], u: int, size: int, k: int) -> float:
    """:func:`avoid_table`'s entry; a ``size`` of 0 or less holds nothing."""
    return table[(u * (MAX_SIZE + 1) + max(0, size)) * 53 + k]


def key(card: int, led: int, trump: int) -> int:
    """Strength of ``card`` in a trick led in ``led`` (-1 cannot win, LR-10)."""
    if card == SPY or card % 13 == JACK:
        return -1
    s = card // 13
    if s == trump:
        return 100 + card % 13
    if s == led:
        return card % 13
    return -1


def best(k: list[int], card: int, led: int) -> tuple[int, int]:
    """(winning seat or -1, its key) of the trick with ``card`` added by the seat."""
    seat, top = -1, -1
    for i in range(k[TRICK_N] + 1):
        c = k[TRICK_CARD + i] if i < k[TRICK_N] else card
        x = key(c, led, k[TRUMP])
        if x > top:
            seat, top = k[TRICK_SEAT + i] if i < k[TRICK_N] else k[ME], x
    return seat, top


def active_jacks(k: list[int], army: int) -> int:
    """The mask of ``army``'s Jacks if they are active (its colour is trump's, LR-2)."""
    m = 0
    if SUIT_COLOUR[k[TRUMP]] == army:
        for s in range(4):
            if SUIT_COLOUR[s] == army:
                m |= 1 << s * 13 + JACK
    return m


def stakes(k: list[int], card: int) -> tuple[float, float, float]:
    """What the trick with ``card`` added is worth to the seat's army (its points minus
    the enemy's) if its army takes it, if the enemy does, if nobody does: the Spy and
    the active Jacks score for whoever's army captures them (LR-15), Force Strength
    counts the plain cards (LR-16)."""
    army = k[ARMY + k[ME]]
    cards = 1 << card
    for i in range(k[TRICK_N]):
        cards |= 1 << k[TRICK_CARD + i]
    us = 2.0 * bit_count(cards & (1 << SPY | active_jacks(k, army)))
    them = -2.0 * bit_count(cards & (1 << SPY | active_jacks(k, 1 - army)))
    if k[FORCE]:
        plain = k[TRICK_N] + 1 - bit_count(cards & (1 << SPY | JACKS))
        us += 0.08 * plain
        them += -(0.08 * plain)
    return us, them, 0.0


def stake(k: list[int], card: int, captor: int) -> float:
    """:func:`stakes` if ``captor`` (an army, -1 nobody) takes the trick."""
    us, them, none = stakes(k, card)
    return none if captor < 0 else us if captor == k[ARMY + k[ME]] else them


def rank_keep(k: list[int], card: int) -> float:
    """What a plain card is worth kept: its rank, trump, master (nothing live above it)."""
    s, rank = card // 13, card % 13
    higher = (suit_ranks(k[LIVE], s) & ~(1 << JACK)) >> rank + 1
    base = RANK_COST * rank
    if s == k[TRUMP]:
        base += TRUMP_COST
    if higher == 0:
        base += MASTER_COST
    return base


# --- 4 players -----------------------------------------------------------------------------


def keep_four(k: list[int], card: int) -> float:
    """What a card is worth kept for later (what playing it costs), 4 players."""
    trump_colour = SUIT_COLOUR[k[TRUMP]]
    if card == SPY:
        return SPY_KEEP  # fed to a partner's trick it scores
    if card % 13 == JACK:
        if SUIT_COLOUR[card // 13] != trump_colour:
            return -0.2  # inactive: junk, glad to be rid of it
        # An own active Jack is worth +2 fed to a trick the army wins; an enemy one costs 2
        # if the enemy captures it.
        if SUIT_COLOUR[card // 13] == k[ARMY + k[ME]]:
            return OWN_JACK_KEEP
        return ENEMY_JACK_KEEP
    s = card // 13
    base = rank_keep(k, card)
    if k[HAND] >> s * 13 + JACK & 1 and SUIT_COLOUR[s] == trump_colour:
        base += GUARD_COST  # it shields an active Jack (LR-7)
    return base


def expected_dumps(k: list[int], first: int, count: int, led: int, table: list[float]) -> tuple[float, float]:
    """Soldier points the ``count`` seats from ``first`` on may still throw in: (if the
    seat's army captures, if the enemy does).

    A seat void in the led suit may discard anything; each unseen soldier is in a given
    hidden hand with chance size/unseen and comes out with chance about 1/size; the led
    suit's active Jack comes out now if it is the last card of the suit (LR-7)."""
    unseen = k[UNSEEN]
    u = bit_count(unseen)
    if not u:
        return 0.0, 0.0
    army, trump_colour = k[ARMY + k[ME]], SUIT_COLOUR[k[TRUMP]]
    mine = theirs = 0.0
    if unseen >> SPY & 1:
        mine += 2.0
        theirs -= 2.0
    for s in range(4):
        if unseen >> s * 13 + JACK & 1 and SUIT_COLOUR[s] == trump_colour:
            if SUIT_COLOUR[s] == army:
                mine += 2.0
            else:
                theirs -= 2.0
    gain = loss = 0.0
    for j in range(count):
        q = (first + j) % k[PLAYERS]
        size = k[SIZES + q]
        if not size:
            continue
        void = led < 0 or (k[VOIDS + q] >> led & 1) != 0
        p_void = 1.0 if void else 0.25
        gain += p_void * mine / u
        loss += p_void * theirs / u
        if not void and unseen >> led * 13 + JACK & 1 and SUIT_COLOUR[led] == trump_colour:
            others = bit_count(suit_ranks(unseen, led)) - 1
            p_last = 1.0 if size <= 1 else avoid(table, u, size - 1, min(others, u))
            p = FORCED_WEIGHT * (size / u) * p_last
            if SUIT_COLOUR[led] == army:
                gain += 2.0 * p
            else:
                loss -= 2.0 * p
    return gain, loss


KEYS: Final = 27
"""Trick keys a later seat's best card can have: -1, the led suit's ranks 0..12 and the
trumps 100..112 (:func:`key_index`)."""
CDF, TERMS, DUMPS, FILLED, WORK, MEMO = 0, 15 * KEYS, 30 * KEYS, 30 * KEYS + 10, 30 * KEYS + 20, 28
"""The runner's work space (:data:`WORK` floats), per led suit (-1 … 3): the later seats'
chances of :func:`cdf_rows` at every key and what each key adds to the outcome (at
``TERMS - CDF`` further on), :func:`expected_dumps`, whether each of the two is worked
out yet (``FILLED + led + 1``, ``FILLED + 5 + led + 1``).  With 2 players (which use no
key chances) the first 28 floats are :func:`phantom_answer`'s and the 20 from
:data:`MEMO` its answers per led suit kept for the next lead of that suit
(:func:`lead_answer`)."""


def key_index(x: int) -> int:
    """The position of trick key ``x`` among the :data:`KEYS`."""
    return 0 if x < 0 else 1 + x if x < 13 else 14 + x - 100


def unseen_keys(k: list[int], led: int) -> int:
    """The keys (:func:`key_index` bits) of the unseen cards in a trick led in ``led``,
    and -1's."""
    trump = k[TRUMP]
    keys = 1 | (suit_ranks(k[UNSEEN], trump) & ~(1 << JACK)) << 14
    if 0 <= led != trump:
        keys |= (suit_ranks(k[UNSEEN], led) & ~(1 << JACK)) << 1
    return keys


def cdf_rows(k: list[int], led: int, table: list[float], work: list[float]) -> int:
    """The offset in ``work`` of the later seats' (``j``-th at ``+ j * KEYS``) chances that
    the best key each can put on a trick led in ``led`` is at most ``x``, at the keys
    ``x`` of :func:`unseen_keys` (position :func:`key_index`; between them the chance
    stays the same); worked out on first use.

    Hypergeometric over the unseen cards, with the seat's voids; as seen by the seat
    deciding, a later enemy fights for the trick with chance :data:`ENEMY_FIGHT` only."""
    at = CDF + (led + 1) * 3 * KEYS
    if work[FILLED + led + 1]:
        return at
    work[FILLED + led + 1] = 1.0
    n, unseen, trump = k[PLAYERS], k[UNSEEN], k[TRUMP]
    u = bit_count(unseen)
    plain_led = 0 <= led != trump
    keys = unseen_keys(k, led)
    for j in range(n - k[TRICK_N] - 1):
        q = (k[ME] + 1 + j) % n
        void = k[VOIDS + q]
        trumps = 0 if void >> trump & 1 else suit_ranks(unseen, trump) & ~(1 << JACK)
        led_cards = suit_ranks(unseen, led) if plain_led and not void >> led & 1 else 0
        n_led = bit_count(led_cards)
        own = (led_cards & ~(1 << JACK)) << 1 | trumps << 14  # the seat's keys
        a, tx = bit_count(led_cards & ~(1 << JACK)), bit_count(trumps)  # its keys above x
        row = (u * (MAX_SIZE + 1) + max(0, k[SIZES + q])) * 53
        enemy = k[ARMY + q] != k[ARMY + k[ME]]
        rest = keys
        while rest:
            low = rest & -rest
            rest ^= low
            if own & low:
                if low < 1 << 14:
                    a -= 1
                else:
                    tx -= 1
            if plain_led:
                v = max(0.0, table[row + a] - (table[row + n_led] - table[row + n_led + tx]))
            else:
                v = table[row + tx]
            if enemy:
                v = ENEMY_FIGHT * v + 1.0 - ENEMY_FIGHT
            work[at + j * KEYS + bit_count(low - 1)] = v
    outcome_terms(k, keys, at, n - k[TRICK_N] - 1, work)
    return at


def outcome_terms(k: list[int], keys: int, at: int, count: int, work: list[float]) -> None:
    """For every key ``x`` of ``keys`` but the lowest, what the ``j``-th later seat's
    chance of having its best card at ``x`` (and every other seat's below it: one card
    cannot be in two hands) adds to :func:`outcome`, at ``TERMS - CDF`` after the chances
    (0.0 where it adds nothing)."""
    terms = at + TERMS - CDF
    prev = 0
    rest = keys & ~1
    while rest:
        low = rest & -rest
        rest ^= low
        x = bit_count(low - 1)
        for j in range(count):
            hit = work[at + j * KEYS + x] - work[at + j * KEYS + prev]
            term = 0.0
            if hit > 0:
                others = 1.0
                for i in range(count):
                    if i != j:
                        others *= work[at + i * KEYS + prev]
                term = hit * others
            work[terms + j * KEYS + x] = term
        prev = x


def outcome(k: list[int], card: int, led: int, table: list[float], work: list[float]) -> tuple[float, float]:
    """(P the seat's army captures the trick with ``card`` added, P the enemy does) if
    every later seat plays the best card it can; the rest is a trick with no winner."""
    n, played = k[PLAYERS], k[TRICK_N] + 1
    first = (k[ME] + 1) % n
    count = n - played
    seat, top = best(k, card, led)
    army = k[ARMY + k[ME]]
    if not count:
        if seat < 0:
            return 0.0, 0.0
        return (1.0, 0.0) if k[ARMY + seat] == army else (0.0, 1.0)
    at = cdf_rows(k, led, table, work)
    keys = unseen_keys(k, led)
    prev = key_index(top)
    while not keys >> prev & 1:
        prev -= 1  # the chances at top are those at the highest key below it
    stay = 1.0
    for j in range(count):
        stay *= work[at + j * KEYS + prev]
    p_us = p_them = none = 0.0
    if seat >= 0:
        if k[ARMY + seat] == army:
            p_us += stay
        else:
            p_them += stay
    else:
        none = stay
    union = keys & ~((2 << key_index(top)) - 1)
    terms = at + TERMS - CDF
    partners = 0  # bit j: the j-th later seat is of the seat's army
    for j in range(count):
        if k[ARMY + (first + j) % n] == army:
            partners |= 1 << j
    while union:
        low = union & -union
        union ^= low
        x = bit_count(low - 1)
        for j in range(count):
            if partners >> j & 1:
                p_us += work[terms + j * KEYS + x]
            else:
                p_them += work[terms + j * KEYS + x]
    total = p_us + p_them + none
    if total <= 0:
        return 0.0, 0.0
    return p_us / total, p_them / total


def value_four(k: list[int], card: int, table: list[float], work: list[float]) -> float:
    """What playing ``card`` is worth, 4 players: the stake won or lost with the chances
    of :func:`outcome`, the soldiers later seats may dump, minus :func:`keep_four`."""
    n = k[PLAYERS]
    led = k[LED]
    if not k[TRICK_N] or led < 0:
        led = card // 13 if card != SPY else -1
    count = n - k[TRICK_N] - 1
    p_us, p_them = outcome(k, card, led, table, work)
    p_none = max(0.0, 1.0 - p_us - p_them)
    army = k[ARMY + k[ME]]
    us, them, none = stakes(k, card)
    value = p_us * us + p_them * them + p_none * none
    # Soldiers still to come are more likely dumped into a trick whose winner is clear.
    at = DUMPS + 2 * (led + 1)
    if not work[FILLED + 6 + led]:
        work[at], work[at + 1] = expected_dumps(k, (k[ME] + 1) % n, count, led, table)
        work[FILLED + 6 + led] = 1.0
    gain, loss = work[at], work[at + 1]
    value += FUTURE_WEIGHT * count * (p_us - p_them) + DUMP_WEIGHT * (p_us * gain + p_them * loss)
    keep = keep_four(k, card)
    if card == SPY or (card % 13 == JACK and SUIT_COLOUR[card // 13] == SUIT_COLOUR[k[TRUMP]] == army):
        keep *= min(1.0, bit_count(k[HAND]) / KEEP_FADE)
    value -= keep
    if not k[TRICK_N] and card != SPY:
        trump = k[TRUMP]
        if card // 13 == trump and card % 13 != JACK:
            mine = bit_count(suit_ranks(k[HAND], trump) & ~(1 << JACK))
            out = bit_count(suit_ranks(k[UNSEEN], trump) & ~(1 << JACK))
            if mine >= 3 and mine >= out:
                value += TRUMP_LEAD  # draw the enemy's trumps so our winners stand
        if card % 13 == JACK:
            value -= JACK_LEAD_PENALTY  # a led Jack invites a trick with no winner (LR-11)
    return value


# --- 2 players (Command of Two) ------------------------------------------------------------


def jacks_out(k: list[int]) -> int:
    """The Jacks the seat has not seen."""
    n = 0
    for s in range(4):
        n += k[UNSEEN] >> s * 13 + JACK & 1
    return n


def keep_two(k: list[int], card: int) -> float:
    """What a card is worth kept, 2 players: the Spy and an enemy active Jack are
    liabilities (whoever plays a soldier hands it to the other army unless the trick has
    no winner, LR-10, LR-11)."""
    trump_colour, army = SUIT_COLOUR[k[TRUMP]], k[ARMY + k[ME]]
    if card == SPY:
        return -2.0 * (1.0 - D_SPY * min(1.0, jacks_out(k) / 2))
    s = card // 13
    if card % 13 == JACK:
        if SUIT_COLOUR[s] == trump_colour != army:
            return -2.0 * Q_JACK
        return 0.0  # my own active Jack can only be taken by the enemy; inactive ones score nothing
    base = rank_keep(k, card)
    if k[HAND] >> s * 13 + JACK & 1 and SUIT_COLOUR[s] == trump_colour != army:
        if bit_count(suit_ranks(k[HAND], s)) == 2:
            base += GUARD_COST  # the last guard of an enemy Jack (LR-7)
    return base


def valuable_mask(k: list[int]) -> int:
    """The opponent's cards worth 2 to the seat if it captures them: the Spy and its
    army's active Jacks."""
    return 1 << SPY | active_jacks(k, k[ARMY + k[ME]])


Categories = tuple[int, int, int, int, int, int, int]
"""The cards of each category, :data:`B` … :data:`O`, as masks."""


def categories(k: list[int], lead: int) -> Categories:
    """The cards of each category against ``lead``."""
    led = -1 if lead == SPY else lead // 13
    trump = k[TRUMP]
    plain = ((1 << 52) - 1) & ~JACKS
    above = follow = led_jack = 0
    if led >= 0:
        suit = (0x1FFF << 13 * led) & plain
        above = suit if lead % 13 == JACK else suit & ~((2 << lead) - 1)
        follow = suit & ~above
        led_jack = 1 << led * 13 + JACK
        plain &= ~suit
    trumps = 0 if trump == led else (0x1FFF << 13 * trump) & plain
    return above, follow, led_jack, trumps, 1 << SPY, JACKS & ~led_jack, plain & ~trumps


def category_of(cats: Categories, card: int) -> int:
    """The category of ``card`` in :func:`categories`."""
    for c in range(7):
        if cats[c] >> card & 1:
            return c
    return O


def hidden_phantom(k: list[int]) -> tuple[int, int, int]:
    """The opponent's unseen cards split by where they can lie: (the pool, in its hand or
    face down in its phantom; the forced, of suits its hand has shown void in, face down
    in the phantom, LR-20; its face-down phantom cards)."""
    opp = 1 - k[ME]
    void = k[VOIDS + opp]
    excluded = 0
    for s in range(4):
        if void >> s & 1:
            excluded |= 0x1FFF << 13 * s
    hidden = 0
    for i in range(k[OPP_PHANTOM_N]):
        if k[OPP_PHANTOM + i] < 0:
            hidden += 1
    return k[UNSEEN] & ~excluded, k[UNSEEN] & excluded, hidden


def entry_chances(k: list[int], cats: Categories, entry: int, valuable: int, d: list[float], at: int) -> None:
    """Writes to ``d[at:at + 14]`` the chances of each ``category * 2 + valuable`` for one
    of the opponent's top phantom cards (``entry``, -1 face down: drawn from the hidden
    cards)."""
    for c in range(14):
        d[at + c] = 0.0
    if entry >= 0:
        d[at + category_of(cats, entry) * 2 + (valuable >> entry & 1)] = 1.0
        return
    pool, forced, hidden = hidden_phantom(k)
    n = bit_count(pool)
    n_forced = bit_count(forced)
    p_forced = 1.0 / hidden if hidden else 0.0
    p_pool = max(0.0, (hidden - n_forced) / (hidden * n)) if hidden and n else 0.0
    for c in range(14):
        m = cats[c // 2] & (valuable if c % 2 else ~valuable)
        for _ in range(bit_count(forced & m)):
            d[at + c] += p_forced
        for _ in range(bit_count(pool & m)):
            d[at + c] += p_pool
    total = 0.0
    for c in range(14):
        total += d[at + c]
    if total <= 0:
        d[at + O * 2] = 1.0
        return
    for c in range(14):
        d[at + c] /= total


def single_outcome(c: int, valuable: int, soldier: bool) -> tuple[float, float, float, float]:
    """(take, dump, give, no winner) when the opponent's phantom holds one card of category ``c``."""
    if c == B or c == T:
        return 1.0, 0.0, 0.0, 0.0
    if c == Y or c == J or c == SJ:
        if soldier:
            return 0.0, 1.0 if valuable != 0 else 0.0, 0.0, 1.0
        return 0.0, 0.0, 1.0 if valuable != 0 else 0.0, 0.0
    return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0


def pair_outcome(c1: int, v1: int, c2: int, v2: int, soldier: bool) -> tuple[float, float, float, float]:
    """The same for a draw of two (LR-14: follow suit if either card does; the opponent
    then picks what suits it best)."""
    if c1 == B or c2 == B:
        return 1.0, 0.0, 0.0, 0.0
    s1, s2 = c1 == S or c1 == SJ, c2 == S or c2 == SJ
    if s1 or s2:
        if c1 == S or c2 == S:  # a plain card follows (Jack protection between the two)
            return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
        valuable = v1 if s1 else v2  # only the led suit's Jack follows: it must be played
        if soldier:
            return 0.0, 1.0 if valuable != 0 else 0.0, 0.0, 1.0
        return 0.0, 0.0, 1.0 if valuable != 0 else 0.0, 0.0
    if c1 == T or c2 == T:
        return 1.0, 0.0, 0.0, 0.0
    if soldier:  # two cards that cannot win: a soldier worth 2 to me may be dumped
        dumped = (v1 != 0 and (c1 == Y or c1 == J)) or (v2 != 0 and (c2 == Y or c2 == J))
        return 0.0, 1.0 if dumped else 0.0, 0.0, 1.0
    if c1 == O or c2 == O:
        return 0.0, 0.0, 0.0, 0.0
    return 0.0, 0.0, 1.0 if v1 != 0 and v2 != 0 else 0.0, 0.0


PAIRS: Final = tuple(int(y) for soldier in (False, True) for c1 in range(14) for c2 in range(14)
                     for y in pair_outcome(c1 // 2, c1 % 2, c2 // 2, c2 % 2, soldier))
""":func:`pair_outcome` of every pair of ``category * 2 + valuable`` entries, led by a
soldier or not: ``PAIRS[((soldier * 14 + c1) * 14 + c2) * 4 + i]`` (all 0 or 1)."""


def phantom_answer(k: list[int], lead: int, work: list[float]) -> tuple[float, float, float, float]:
    """The opponent's answer to ``lead`` from the top one or two cards of its phantom deck
    (``work``: 28 floats of work space)."""
    soldier = lead == SPY or lead % 13 == JACK
    size = k[OPP_PHANTOM_N]
    if not size:
        return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
    cats, valuable = categories(k, lead), valuable_mask(k)
    entry_chances(k, cats, k[OPP_PHANTOM], valuable, work, 0)
    take = dump = give = none = 0.0
    if size == 1:
        for c in range(14):
            p = work[c]
            if p:
                y = single_outcome(c // 2, c % 2, soldier)
                take, dump, give, none = take + p * y[0], dump + p * y[1], give + p * y[2], none + p * y[3]
        return take, dump, give, none
    if k[OPP_PHANTOM] < 0 and k[OPP_PHANTOM + 1] < 0:
        for c in range(14):
            work[14 + c] = work[c]  # two face-down cards: the same chances
    else:
        entry_chances(k, cats, k[OPP_PHANTOM + 1], valuable, work, 14)
    for c1 in range(14):
        if not work[c1]:
            continue
        for c2 in range(14):
            if work[14 + c2]:
                p = work[c1] * work[14 + c2]
                i = ((soldier * 14 + c1) * 14 + c2) * 4
                take, dump, give, none = (take + p * PAIRS[i], dump + p * PAIRS[i + 1], give + p * PAIRS[i + 2],
                                          none + p * PAIRS[i + 3])
    return take, dump, give, none


def lead_answer(k: list[int], lead: int, work: list[float]) -> tuple[float, float, float, float]:
    """:func:`phantom_answer`, kept per led suit (from ``work[MEMO]``, cleared by
    :func:`choose`) for the next plain lead of that suit that splits the cards the
    answer can hold (the unseen ones and the face-up top two) the same way: the same
    categories, so the same answer."""
    if lead == SPY or lead % 13 == JACK:
        return phantom_answer(k, lead, work)
    s = lead // 13
    cards = k[UNSEEN]
    for i in range(min(2, k[OPP_PHANTOM_N])):
        if k[OPP_PHANTOM + i] >= 0:
            cards |= 1 << k[OPP_PHANTOM + i]
    above = 1 + ((suit_ranks(cards, s) & ~(1 << JACK)) >> lead % 13 + 1)
    at = MEMO + 5 * s
    if work[at] == above:
        return work[at + 1], work[at + 2], work[at + 3], work[at + 4]
    answer = phantom_answer(k, lead, work)
    work[at] = above
    work[at + 1], work[at + 2], work[at + 3], work[at + 4] = answer
    return answer


def hand_answer(k: list[int], lead: int, table: list[float]) -> tuple[float, float, float, float]:
    """The opponent's answer to ``lead`` from its real hand (hypergeometric over the pool
    of :func:`hidden_phantom`)."""
    soldier = lead == SPY or lead % 13 == JACK
    h = k[SIZES + 1 - k[ME]]
    if h == 0:
        return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
    cats, valuable = categories(k, lead), valuable_mask(k)
    pool = hidden_phantom(k)[0]
    n = bit_count(pool)
    size = min(h, n)
    beat, trumps = bit_count(pool & cats[B]), bit_count(pool & cats[T])
    suited = beat + bit_count(pool & (cats[S] | cats[SJ]))
    extra = bit_count(pool & cats[J] & valuable)
    cap = max(0.0, 1.0 - avoid(table, n, size, beat) + avoid(table, n, size, suited)
              - avoid(table, n, size, suited + trumps))
    dump = give = none = 0.0
    if soldier:
        extra += 1 if pool >> SPY & 1 else 0
        if extra:
            dump = avoid(table, n, size, suited + trumps) - avoid(table, n, size, suited + trumps + extra)
        none = 1.0 - cap
    elif pool & cats[SJ] & valuable:
        # the led suit's Jack is its only card of the suit
        give = avoid(table, n, size, suited - 1) - avoid(table, n, size, suited)
    return cap, max(0.0, dump), max(0.0, give), none


def value_two(k: list[int], card: int, from_phantom: bool, table: list[float], work: list[float]) -> float:
    """What playing ``card`` (from the hand, or from the phantom deck) is worth, 2 players:
    exact when following; a lead by the opponent's possible answers (LR-13, LR-14)."""
    keep = keep_two(k, card)
    hand = k[HAND]
    if not from_phantom and card != SPY and hand >> SPY & 1 and jacks_out(k):
        # Holding the Spy, a void lets it fall on a Jack the opponent leads (LR-7, LR-11).
        if bit_count(suit_ranks(hand, card // 13)) == 1:
            keep -= TWO_VOID_BONUS
    army = k[ARMY + k[ME]]
    if k[TRICK_N]:
        led = k[LED] if k[LED] >= 0 else (-1 if card == SPY else card // 13)
        seat = best(k, card, led)[0]
        value = stake(k, card, -1 if seat < 0 else k[ARMY + seat])
        if seat == k[ME]:
            value += TWO_LEAD_VALUE
        return value - keep
    answer_phantom = not from_phantom
    if answer_phantom and not k[OPP_PHANTOM_N]:
        answer_phantom = False
    if not answer_phantom and k[SIZES + 1 - k[ME]] == 0:
        answer_phantom = True
    if answer_phantom:
        cap, dump, give, none = lead_answer(k, card, work)
    else:
        cap, dump, give, none = hand_answer(k, card, table)
    them, nobody = stakes(k, card)[1:]
    value = cap * them + none * nobody
    value += give * 2.0 - dump * TWO_LOST_DUMP
    if card != SPY and card % 13 != JACK:
        value += max(0.0, 1.0 - cap - none) * TWO_LEAD_VALUE
    return value - keep


def value_draw(k: list[int], table: list[float], work: list[float]) -> float:
    """``draw two`` is worth its best card among those the draw would allow (LR-14)."""
    n = k[MY_PHANTOM_N]
    if n < 2:
        return value_two(k, k[MY_PHANTOM], True, table, work) if n else -1e9
    a, b = k[MY_PHANTOM], k[MY_PHANTOM + 1]
    ok_a = ok_b = True
    if not k[TRICK_N]:
        ok_a, ok_b = a != SPY, b != SPY
    elif k[LED] >= 0:
        led = k[LED]
        suited_a = a != SPY and a // 13 == led
        suited_b = b != SPY and b // 13 == led
        if suited_a and suited_b:
            ok_a, ok_b = a % 13 != JACK, b % 13 != JACK
        elif suited_a or suited_b:
            ok_a, ok_b = suited_a, suited_b
    value = -1e300
    if ok_a:
        value = value_two(k, a, True, table, work)
    if ok_b:
        value = max(value, value_two(k, b, True, table, work))
    return value


# --- the choice ----------------------------------------------------------------------------


def choose(k: list[int], legal: list[int], noise: list[float], table: list[float], work: list[float]) -> int:
    """The index in ``legal`` (the engine's legal actions, ascending) of the heuristic's
    action: the highest value, each raised by ``noise[i] * NOISE`` (the runner's
    tie-breaking numbers in [0, 1), one per action); ``table``: :func:`avoid_table`;
    ``work``: :data:`WORK` floats of work space."""
    for i in range(10):
        work[FILLED + i] = 0.0
    if k[PLAYERS] == 2:
        for i in range(4):
            work[MEMO + 5 * i] = 0.0
    choice, best_value = 0, -1e9
    for i in range(len(legal)):
        a = legal[i]
        if k[PLAYERS] == 4:
            v = value_four(k, a, table, work)
        elif a == DRAW:
            v = value_draw(k, table, work)
        elif a >= PHANTOM_BASE:
            v = value_two(k, a - PHANTOM_BASE, True, table, work)
        else:
            v = value_two(k, a, False, table, work)
        v += noise[i] * NOISE
        if v > best_value:
            choice, best_value = i, v
    return choice
