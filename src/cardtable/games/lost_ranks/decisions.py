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

A card's strength in a trick is :func:`~cardtable.games.lost_ranks.rollout.key`, the
search's play-outs' own (one definition of LR-10 for both).  The hypergeometric chances
come from one table, :func:`avoid_table` (``AVOID[u, size,
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
>>> ace, two = legal.index(parse_french("AC")), legal.index(parse_french("2C"))
>>> round(work[VALUES + ace] - work[VALUES + two], 2)  # the values of the two cards
3.4
"""

from __future__ import annotations

from typing import Final

from cardtable.games.lost_ranks.rollout import key
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

TABLES: Final = ("SUIT_COLOUR",)
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


def avoid(u: int, size: int, k: int) -> int:
    """The index of :func:`avoid_table`'s entry for ``u``, ``size``, ``k`` (a ``size`` of
    0 or less holds nothing)."""
    return (u * (MAX_SIZE + 1) + max(0, size)) * 53 + k


Facts = tuple[int, int, int, int, int]
"""What every candidate card of one decision shares (:func:`decision_facts`)."""


def decision_facts(k: list[int]) -> Facts:
    """What the candidates of one decision share, worked out once: the trick so far (its
    winning seat or -1, that card's key, the mask of its cards), the soldiers worth 2 to
    the seat's army — the Spy and the army's active Jacks, LR-15 — and those worth 2 to
    the enemy.  A trick the Spy alone has led has no led suit yet; its key is -1
    whichever suit comes."""
    seat, top, cards, trump = -1, -1, 0, k[TRUMP]
    for i in range(k[TRICK_N]):
        c = k[TRICK_CARD + i]
        cards |= 1 << c
        x = key(c, k[LED], trump)
        if x > top:
            seat, top = k[TRICK_SEAT + i], x
    army = k[ARMY + k[ME]]
    return seat, top, cards, 1 << SPY | active_jacks(trump, army), 1 << SPY | active_jacks(trump, 1 - army)


def later(me: int, j: int, n: int) -> int:
    """The seat ``j + 1`` places after ``me`` of ``n`` (``j < n``; no division)."""
    q = me + 1 + j
    return q - n if q >= n else q


def best(facts: Facts, me: int, card: int, led: int, trump: int) -> tuple[int, int]:
    """(winning seat or -1, its key) of the trick of ``facts`` with ``card`` added by seat ``me``."""
    x = key(card, led, trump)
    return (me, x) if x > facts[1] else (facts[0], facts[1])


def active_jacks(trump: int, army: int) -> int:
    """The mask of ``army``'s Jacks if they are active (its colour is ``trump``'s, LR-2)."""
    m = 0
    if SUIT_COLOUR[trump] == army:
        for s in range(4):
            if SUIT_COLOUR[s] == army:
                m |= 1 << s * 13 + JACK
    return m


def stakes(facts: Facts, card: int, played: int, force: int) -> tuple[float, float, float]:
    """What the trick of ``facts`` with ``card`` added (``played`` cards then) is worth
    to the seat's army (its points minus the enemy's) if its army takes it, if the enemy does, if
    nobody does: the Spy and the active Jacks score for whoever's army captures them
    (LR-15), Force Strength (``force``) counts the plain cards (LR-16)."""
    cards = facts[2] | 1 << card
    us = 2.0 * bit_count(cards & facts[3])
    them = -2.0 * bit_count(cards & facts[4])
    if force:
        plain = played - bit_count(cards & (1 << SPY | JACKS))
        us += 0.08 * plain
        them += -(0.08 * plain)
    return us, them, 0.0


def rank_keep(card: int, trump: int, live: int) -> float:
    """What a plain card is worth kept: its rank, trump, master (nothing ``live`` above it)."""
    s, rank = card // 13, card % 13
    higher = (suit_ranks(live, s) & ~(1 << JACK)) >> rank + 1
    base = RANK_COST * rank
    if s == trump:
        base += TRUMP_COST
    if higher == 0:
        base += MASTER_COST
    return base


# --- 4 players -----------------------------------------------------------------------------


def keep_four(card: int, trump: int, army: int, hand: int, live: int) -> float:
    """What a card is worth kept for later (what playing it costs), 4 players, to a seat
    of ``army`` holding ``hand``."""
    trump_colour = SUIT_COLOUR[trump]
    if card == SPY:
        return SPY_KEEP  # fed to a partner's trick it scores
    if card % 13 == JACK:
        if SUIT_COLOUR[card // 13] != trump_colour:
            return -0.2  # inactive: junk, glad to be rid of it
        # An own active Jack is worth +2 fed to a trick the army wins; an enemy one costs 2
        # if the enemy captures it.
        if SUIT_COLOUR[card // 13] == army:
            return OWN_JACK_KEEP
        return ENEMY_JACK_KEEP
    s = card // 13
    base = rank_keep(card, trump, live)
    if hand >> s * 13 + JACK & 1 and SUIT_COLOUR[s] == trump_colour:
        base += GUARD_COST  # it shields an active Jack (LR-7)
    return base


def soldiers_out(unseen: int, army: int, trump: int) -> tuple[float, float]:
    """The points of the soldiers among the ``unseen`` cards: (to ``army`` if it captures
    them, to the enemy): the Spy and the active Jacks (LR-15)."""
    trump_colour = SUIT_COLOUR[trump]
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
    return mine, theirs


KEYS: Final = 27
"""Trick keys a later seat's best card can have: -1, the led suit's ranks 0..12 and the
trumps 100..112 (:func:`key_index`)."""
CDF, ROWS, DUMPS, FILLED, KEY_SETS, VALUES = 0, 15 * KEYS, 30 * KEYS, 30 * KEYS + 10, 30 * KEYS + 15, 30 * KEYS + 20
"""The runner's work space (:data:`WORK` floats), per led suit (-1 … 3), shared by every
candidate card of one decision (:func:`led_rows`): the later seats' chances of
:func:`cdf_rows` at the keys the candidates need (``KEY_SETS + led + 1``), what
:func:`outcome` reads at those keys (at ``ROWS - CDF`` further on: :func:`outcome_rows`),
:func:`cdf_rows`' dumps and whether they are worked out yet (``FILLED + led + 1``); then
the candidates' values (``VALUES + i``).  2 players use none of it."""
WORK: Final = VALUES + 54
"""Floats of the work space (:data:`VALUES` and 54 candidates' values)."""


def key_index(x: int) -> int:
    """The position of trick key ``x`` among the :data:`KEYS`."""
    return 0 if x < 0 else 1 + x if x < 13 else 14 + x - 100


def unseen_keys(unseen: int, led: int, trump: int) -> int:
    """The keys (:func:`key_index` bits) of the ``unseen`` cards in a trick led in
    ``led``, and -1's."""
    keys = 1 | (suit_ranks(unseen, trump) & ~(1 << JACK)) << 14
    if 0 <= led != trump:
        keys |= (suit_ranks(unseen, led) & ~(1 << JACK)) << 1
    return keys


def floor_key(hand: int, led: int, trump: int, following: bool, top: int) -> int:
    """The position (:func:`key_index`) of the lowest key a card of ``hand`` can leave
    as the best of a trick led in ``led`` whose best key so far is ``top``: that key when
    ``following`` a led suit, else the lowest key of the hand's cards of ``led`` (a Jack
    or the Spy: -1, LR-10)."""
    if following:
        return key_index(top)
    ranks = suit_ranks(hand, led) if led >= 0 else 0
    if not ranks or ranks >> JACK & 1:
        return 0
    low = ranks & -ranks
    return key_index(key(led * 13 + bit_count(low - 1), led, trump))


def led_rows(k: list[int], led: int, top: int, table: list[float], work: list[float]) -> None:
    """Works out in ``work`` what every candidate card of a trick led in ``led`` (best key
    so far ``top``; a seat plays after this one) shares: :func:`cdf_rows` and
    :func:`outcome_rows` from the highest unseen key at or below :func:`floor_key` up."""
    count = k[PLAYERS] - k[TRICK_N] - 1
    work[FILLED + led + 1] = 1.0
    trump = k[TRUMP]
    keys = unseen_keys(k[UNSEEN], led, trump)
    base = floor_key(k[HAND], led, trump, k[TRICK_N] > 0 and k[LED] >= 0, top)
    while not keys >> base & 1:
        base -= 1
    keys &= ~((1 << base) - 1)
    work[KEY_SETS + led + 1] = keys
    at = DUMPS + 2 * (led + 1)
    work[at], work[at + 1] = cdf_rows(k, led, keys, CDF + (led + 1) * 3 * KEYS, table, work)
    outcome_rows(k, keys, CDF + (led + 1) * 3 * KEYS, count, work)


def cdf_rows(k: list[int], led: int, keys: int, at: int, table: list[float],
             work: list[float]) -> tuple[float, float]:
    """Writes to ``work[at:]`` the later seats' (``j``-th at ``+ j * KEYS``) chances that
    the best key each can put on a trick led in ``led`` is at most ``x``, for the keys
    ``x`` of ``keys`` (:func:`unseen_keys` from some key up) in order (``+ i`` for the
    ``i``-th; between them the chance stays the same); returns the soldier points the
    later seats may still throw in (if the seat's army captures, if the enemy does).

    Hypergeometric over the unseen cards, with the seat's voids; as seen by the seat
    deciding, a later enemy fights for the trick with chance :data:`ENEMY_FIGHT` only.
    A seat void in the led suit may discard anything; each unseen soldier is in a given
    hidden hand with chance size/unseen and comes out with chance about 1/size; the led
    suit's active Jack comes out now if it is the last card of the suit (LR-7)."""
    n, unseen, trump = k[PLAYERS], k[UNSEEN], k[TRUMP]
    u = bit_count(unseen)
    army = k[ARMY + k[ME]]
    mine, theirs = soldiers_out(unseen, army, trump)
    share_mine, share_theirs = (mine / u, theirs / u) if u else (0.0, 0.0)
    gain = loss = 0.0
    plain_led = 0 <= led != trump
    low, m = keys & 1, bit_count(keys)  # the -1 key, then the led suit's keys, then the trumps
    led_keys, trump_keys = bit_count(keys & 0x3FFE), bit_count(keys >> 14)
    code0 = code1 = -1
    for j in range(n - k[TRICK_N] - 1):
        q = later(k[ME], j, n)
        void = k[VOIDS + q]
        # the seat's keys are all of the led suit's and the trumps unless it has shown a void
        led_step = 1 if plain_led and not void >> led & 1 else 0
        trump_step = 0 if void >> trump & 1 else 1
        n_led = bit_count(suit_ranks(unseen, led)) if led_step else 0
        a, tx = led_keys * led_step, trump_keys * trump_step  # its keys above x
        size = k[SIZES + q]
        row = (u * (MAX_SIZE + 1) + max(0, size)) * 53
        none_led = table[row + n_led]  # the chance of none of the seat's cards of the led suit
        enemy = k[ARMY + q] != army
        if u and size:
            shown = led < 0 or (void >> led & 1) != 0
            p_void = 1.0 if shown else 0.25
            gain += p_void * share_mine  # as p_void * mine / u: p_void is a power of two
            loss += p_void * share_theirs
            if not shown and unseen >> led * 13 + JACK & 1 and SUIT_COLOUR[led] == SUIT_COLOUR[trump]:
                others = bit_count(suit_ranks(unseen, led)) - 1
                p_last = 1.0 if size <= 1 else table[avoid(u, size - 1, min(others, u))]
                p = FORCED_WEIGHT * (size / u) * p_last
                if SUIT_COLOUR[led] == army:
                    gain += 2.0 * p
                else:
                    loss -= 2.0 * p
        code = ((max(0, size) * 2 + led_step) * 2 + trump_step) * 2 + (1 if enemy else 0)
        if code == code0 or code == code1:  # an earlier seat's very chances
            src = at + (0 if code == code0 else KEYS)
            for i in range(m):
                work[at + j * KEYS + i] = work[src + i]
        else:
            seat_row(table, row, n_led, a, tx, (led_step, trump_step, low, led_keys, m), plain_led, enemy,
                     work, at + j * KEYS)
        if j == 0:
            code0 = code
        else:
            code1 = code
    return gain, loss


def seat_row(table: list[float], row: int, n_led: int, a: int, tx: int, steps: tuple[int, int, int, int, int],
             plain_led: bool, enemy: bool, work: list[float], at: int) -> None:
    """One later seat's chances of :func:`cdf_rows` at ``work[at:]``."""
    led_step, trump_step, low, led_keys, m = steps
    none_led = table[row + n_led]
    if plain_led:
        cut = none_led - table[row + n_led + tx]
        for i in range(low + led_keys):
            if i >= low:
                a -= led_step
            v = max(0.0, table[row + a] - cut)
            if enemy:
                v = ENEMY_FIGHT * v + 1.0 - ENEMY_FIGHT
            work[at + i] = v
        top = table[row + a]
        for i in range(low + led_keys, m):
            tx -= trump_step
            v = max(0.0, top - (none_led - table[row + n_led + tx]))
            if enemy:
                v = ENEMY_FIGHT * v + 1.0 - ENEMY_FIGHT
            work[at + i] = v
    else:
        for i in range(m):
            if i >= low:
                tx -= trump_step
            v = table[row + tx]
            if enemy:
                v = ENEMY_FIGHT * v + 1.0 - ENEMY_FIGHT
            work[at + i] = v


def outcome_rows(k: list[int], keys: int, at: int, count: int, work: list[float]) -> None:
    """What :func:`outcome` reads for a trick whose best card so far is at or above the
    ``i``-th key of ``keys`` (and below the next), for every ``i``, written at
    ``ROWS - CDF`` after the chances: the chance that no later seat tops it (``+ i``),
    that one of the seat's army does (``+ KEYS + i``) and that an enemy does
    (``+ 2 * KEYS + i``).

    A later seat ``j`` tops it with its best card at a key ``y`` above (of ``keys``)
    while every other later seat stays below ``y`` (one card cannot be in two hands):
    the ``j``-th seat's chance at ``y`` less its chance at the key below ``y``, times the
    others' chances at that key below — summed over the keys above, from the top key
    down.  The ``count`` (at most three) later seats' chances are held as three, a
    missing seat's as 1.0 (it never tops the trick)."""
    me, n = k[ME], k[PLAYERS]
    army = k[ARMY + me]
    # 1.0 where a later seat is of the army, 0.0 where of the enemy (a missing seat adds nothing)
    us0 = 1.0 if k[ARMY + later(me, 0, n)] == army else 0.0
    us1 = 1.0 if k[ARMY + later(me, 1, n)] == army else 0.0
    us2 = 1.0 if k[ARMY + later(me, 2, n)] == army else 0.0
    terms = at + ROWS - CDF
    x = bit_count(keys) - 1
    g0 = work[at + x]
    g1 = work[at + KEYS + x] if count > 1 else 1.0
    g2 = work[at + 2 * KEYS + x] if count > 2 else 1.0
    us = them = 0.0
    while x >= 0:
        work[terms + x], work[terms + KEYS + x], work[terms + 2 * KEYS + x] = g0 * g1 * g2, us, them
        if not x:
            break
        x -= 1
        h0 = work[at + x]
        h1 = work[at + KEYS + x] if count > 1 else 1.0
        h2 = work[at + 2 * KEYS + x] if count > 2 else 1.0
        # each seat's chance to top the trick at the key above x (never below 0: the
        # zeros the sums add change nothing, every term is at least +0.0)
        t0 = max(g0 - h0, 0.0) * (h1 * h2)
        t1 = max(g1 - h1, 0.0) * (h0 * h2)
        t2 = max(g2 - h2, 0.0) * (h0 * h1)
        us += ((0.0 + us0 * t0) + us1 * t1) + us2 * t2
        them += ((0.0 + (1.0 - us0) * t0) + (1.0 - us1) * t1) + (1.0 - us2) * t2
        g0, g1, g2 = h0, h1, h2


def outcome(captor: int, army: int, stay: float, over_us: float, over_them: float) -> tuple[float, float]:
    """(P the seat's army ``army`` captures the trick, P the enemy does) if every later
    seat plays the best card it can, from :func:`outcome_rows`' chances at the trick's
    best key: it stays with its ``captor`` (an army, -1 nobody: a trick with no winner)
    with chance ``stay``, a later seat of the army or of the enemy tops it with
    ``over_us`` or ``over_them``."""
    p_us, p_them, none = over_us, over_them, 0.0
    if captor < 0:
        none = stay
    elif captor == army:
        p_us = stay + p_us
    else:
        p_them = stay + p_them
    total = p_us + p_them + none
    if total <= 0:
        return 0.0, 0.0
    return p_us / total, p_them / total


Seat = tuple[int, int, int, int, int, int, int, int]
"""The deciding seat's numbers every candidate reads: army, trump, hand, live and unseen
cards, cards in the trick, Force Strength, later seats (:func:`choose_four`)."""
Rows = tuple[float, float, float, float, float]
"""A candidate's numbers from the led suit's shared rows (:func:`led_rows`): the chances
that the trick stays with its captor, that a later seat of the army or of the enemy
tops it (:func:`outcome_rows`), and :func:`cdf_rows`' dumps."""


def value_four(facts: Facts, seat: Seat, card: int, captor: int, rows: Rows) -> float:
    """What playing ``card`` into the trick of ``facts`` (:func:`decision_facts`) is worth
    to ``seat``, 4 players, when it leaves the trick's best card with ``captor`` (an
    army, -1 nobody): the stake won or lost with the chances of :func:`outcome`, the
    soldiers later seats may dump, minus :func:`keep_four`."""
    army, trump, hand, live, unseen, trick_n, force, count = seat
    stay, over_us, over_them, gain, loss = rows
    p_us, p_them = outcome(captor, army, stay, over_us, over_them)
    p_none = max(0.0, 1.0 - p_us - p_them)
    us, them, none = stakes(facts, card, trick_n + 1, force)
    value = p_us * us + p_them * them + p_none * none
    # Soldiers still to come are more likely dumped into a trick whose winner is clear.
    value += FUTURE_WEIGHT * count * (p_us - p_them) + DUMP_WEIGHT * (p_us * gain + p_them * loss)
    keep = keep_four(card, trump, army, hand, live)
    if card == SPY or (card % 13 == JACK and SUIT_COLOUR[card // 13] == SUIT_COLOUR[trump] == army):
        keep *= min(1.0, bit_count(hand) / KEEP_FADE)
    value -= keep
    if not trick_n and card != SPY:
        if card // 13 == trump and card % 13 != JACK:
            mine = bit_count(suit_ranks(hand, trump) & ~(1 << JACK))
            out = bit_count(suit_ranks(unseen, trump) & ~(1 << JACK))
            if mine >= 3 and mine >= out:
                value += TRUMP_LEAD  # draw the enemy's trumps so our winners stand
        if card % 13 == JACK:
            value -= JACK_LEAD_PENALTY  # a led Jack invites a trick with no winner (LR-11)
    return value


def choose_four(k: list[int], legal: list[int], noise: list[float], table: list[float], work: list[float]) -> int:
    """:func:`choose` with 4 players: every candidate's :func:`value_four` from the rows
    of its led suit (worked out once per decision and led suit, :func:`led_rows`), the
    values left in ``work[VALUES + i]``."""
    for i in range(5):
        work[FILLED + i] = 0.0
    n, me, trump = k[PLAYERS], k[ME], k[TRUMP]
    count = n - k[TRICK_N] - 1
    seat = (k[ARMY + me], trump, k[HAND], k[LIVE], k[UNSEEN], k[TRICK_N], k[FORCE], count)
    facts = decision_facts(k)
    choice, best_value = 0, -1e9
    for i in range(len(legal)):
        card = legal[i]
        led = k[LED]
        if not k[TRICK_N] or led < 0:
            led = card // 13 if card != SPY else -1
        winner, top = best(facts, me, card, led, trump)
        rows = (1.0, 0.0, 0.0, 0.0, 0.0)  # the last seat: the trick is decided
        if count:
            if not work[FILLED + led + 1]:
                led_rows(k, led, facts[1], table, work)
            keys = int(work[KEY_SETS + led + 1])
            at = ROWS + (led + 1) * 3 * KEYS + bit_count(keys & (2 << key_index(top)) - 1) - 1
            dumps = DUMPS + 2 * (led + 1)
            rows = (work[at], work[at + KEYS], work[at + 2 * KEYS], work[dumps], work[dumps + 1])
        v = value_four(facts, seat, card, -1 if winner < 0 else k[ARMY + winner], rows)
        work[VALUES + i] = v
        v += noise[i] * NOISE
        if v > best_value:
            choice, best_value = i, v
    return choice


# --- 2 players (Command of Two) ------------------------------------------------------------


def jacks_out(unseen: int) -> int:
    """The Jacks among the ``unseen`` cards."""
    n = 0
    for s in range(4):
        n += unseen >> s * 13 + JACK & 1
    return n


def keep_two(card: int, trump: int, army: int, hand: int, live: int, jacks: int) -> float:
    """What a card is worth kept, 2 players, to a seat of ``army`` holding ``hand`` with
    ``jacks`` Jacks unseen: the Spy and an enemy active Jack are liabilities (whoever
    plays a soldier hands it to the other army unless the trick has no winner, LR-10,
    LR-11)."""
    trump_colour = SUIT_COLOUR[trump]
    if card == SPY:
        return -2.0 * (1.0 - D_SPY * min(1.0, jacks / 2))
    s = card // 13
    if card % 13 == JACK:
        if SUIT_COLOUR[s] == trump_colour != army:
            return -2.0 * Q_JACK
        return 0.0  # my own active Jack can only be taken by the enemy; inactive ones score nothing
    base = rank_keep(card, trump, live)
    if hand >> s * 13 + JACK & 1 and SUIT_COLOUR[s] == trump_colour != army:
        if bit_count(suit_ranks(hand, s)) == 2:
            base += GUARD_COST  # the last guard of an enemy Jack (LR-7)
    return base


Categories = tuple[int, int, int, int, int, int, int]
"""The cards of each category, :data:`B` … :data:`O`, as masks."""


def categories(trump: int, lead: int) -> Categories:
    """The cards of each category against ``lead``."""
    led = -1 if lead == SPY else lead // 13
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


Opponent = tuple[int, int, int, int, int, int, int, int, int, int, int]
"""What the opponent's answers read in one decision, 2 players (:func:`opponent_facts`)."""


def opponent_facts(k: list[int]) -> Opponent:
    """What every candidate's answer by the opponent shares, worked out once: (trump, the
    cards worth 2 to the seat — the Spy and its army's active Jacks —, the opponent's
    unseen cards by where they can lie (:func:`hidden_phantom`: pool, forced, face-down
    count), the Jacks the seat has not seen, the opponent's real hand size, its phantom
    deck's size and top two cards (-1 face down or none), the cards those two can be:
    the unseen and the face-up ones)."""
    pool, forced, hidden = hidden_phantom(k)
    size = k[OPP_PHANTOM_N]
    first = k[OPP_PHANTOM] if size else -1
    second = k[OPP_PHANTOM + 1] if size > 1 else -1
    cards = k[UNSEEN] | (1 << first if first >= 0 else 0) | (1 << second if second >= 0 else 0)
    return (k[TRUMP], 1 << SPY | active_jacks(k[TRUMP], k[ARMY + k[ME]]), pool, forced, hidden, jacks_out(k[UNSEEN]),
            k[SIZES + 1 - k[ME]], size, first, second, cards)


Entry = tuple[float, float, float, float, float, float, float]
"""The chances that one of the opponent's top phantom cards meets a lead as a card that
beats it in suit (:data:`B`), follows below it (:data:`S`), is the led suit's Jack
(:data:`SJ`) and one worth 2 to the seat, trumps it (:data:`T`), cannot win (:data:`Y`,
:data:`J`, :data:`O`) and is a soldier worth 2 to the seat (:data:`Y` or :data:`J`)."""


def entry_chances(opp: Opponent, cats: Categories, entry: int) -> Entry:
    """:data:`Entry` of one of the opponent's top phantom cards (``entry``, -1 face down:
    drawn from the hidden cards of ``opp``) against the lead of ``cats``."""
    valuable = opp[1]
    soldiers = cats[Y] | cats[J]
    groups = (cats[B], cats[S], cats[SJ], cats[SJ] & valuable, cats[T], soldiers | cats[O], soldiers & valuable)
    if entry >= 0:
        return (float(groups[0] >> entry & 1), float(groups[1] >> entry & 1), float(groups[2] >> entry & 1),
                float(groups[3] >> entry & 1), float(groups[4] >> entry & 1), float(groups[5] >> entry & 1),
                float(groups[6] >> entry & 1))
    pool, forced, hidden = opp[2], opp[3], opp[4]
    n, n_forced = bit_count(pool), bit_count(forced)
    p_forced = 1.0 / hidden if hidden else 0.0
    p_pool = max(0.0, (hidden - n_forced) / (hidden * n)) if hidden and n else 0.0
    total = p_forced * n_forced + p_pool * n  # the groups but the last two split every card
    if total <= 0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0
    f, q = p_forced / total, p_pool / total
    return (f * bit_count(forced & groups[0]) + q * bit_count(pool & groups[0]),
            f * bit_count(forced & groups[1]) + q * bit_count(pool & groups[1]),
            f * bit_count(forced & groups[2]) + q * bit_count(pool & groups[2]),
            f * bit_count(forced & groups[3]) + q * bit_count(pool & groups[3]),
            f * bit_count(forced & groups[4]) + q * bit_count(pool & groups[4]),
            f * bit_count(forced & groups[5]) + q * bit_count(pool & groups[5]),
            f * bit_count(forced & groups[6]) + q * bit_count(pool & groups[6]))


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


def single_answer(e: Entry, soldier: bool) -> tuple[float, float, float, float]:
    """(take, dump, give, no winner) when the opponent's phantom holds one card with the
    chances ``e``: :func:`single_outcome` summed over them."""
    b, s, sj, sjv, t, r, yjv = e
    if soldier:
        return b + t, sjv + yjv, 0.0, s + sj + r
    return b + t, 0.0, sjv + yjv, 0.0


def pair_answer(e1: Entry, e2: Entry, soldier: bool) -> tuple[float, float, float, float]:
    """The same for a draw of two cards with the chances ``e1`` and ``e2``:
    :func:`pair_outcome` summed over both, by its cases — either card beats the lead;
    else either follows (a plain card: nothing; only the led suit's Jack: it must be
    played); else either trumps; else both cannot win."""
    b1, s1, sj1, sjv1, t1, r1, yjv1 = e1
    b2, s2, sj2, sjv2, t2, r2, yjv2 = e2
    no_beat = (s1 + sj1 + t1 + r1) * (s2 + sj2 + t2 + r2)
    no_follow = (t1 + r1) * (t2 + r2)  # nor beats
    cannot = r1 * r2  # neither beats, follows nor trumps
    take = b1 + (s1 + sj1 + t1 + r1) * b2 + no_follow - cannot
    jack = sjv1 * (sj2 + t2 + r2) + (t1 + r1) * sjv2  # only the led suit's Jack follows, worth 2 to me
    if soldier:
        return take, jack + cannot - (r1 - yjv1) * (r2 - yjv2), 0.0, no_beat - no_follow + cannot
    return take, 0.0, jack + yjv1 * yjv2, 0.0


def phantom_answer(opp: Opponent, lead: int) -> tuple[float, float, float, float]:
    """The opponent's answer to ``lead`` from the top one or two cards of its phantom deck."""
    soldier = lead == SPY or lead % 13 == JACK
    size, first, second = opp[7], opp[8], opp[9]
    if not size:
        return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
    cats = categories(opp[0], lead)
    top = entry_chances(opp, cats, first)
    if size == 1:
        return single_answer(top, soldier)
    if first < 0 and second < 0:
        return pair_answer(top, top, soldier)  # two face-down cards: the same chances
    return pair_answer(top, entry_chances(opp, cats, second), soldier)


def hand_answer(opp: Opponent, lead: int, table: list[float]) -> tuple[float, float, float, float]:
    """The opponent's answer to ``lead`` from its real hand (hypergeometric over the pool
    of :func:`hidden_phantom`)."""
    soldier = lead == SPY or lead % 13 == JACK
    h = opp[6]
    if h == 0:
        return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
    cats, valuable, pool = categories(opp[0], lead), opp[1], opp[2]
    n = bit_count(pool)
    size = min(h, n)
    beat, trumps = bit_count(pool & cats[B]), bit_count(pool & cats[T])
    suited = beat + bit_count(pool & (cats[S] | cats[SJ]))
    extra = bit_count(pool & cats[J] & valuable)
    cap = max(0.0, 1.0 - table[avoid(n, size, beat)] + table[avoid(n, size, suited)]
              - table[avoid(n, size, suited + trumps)])
    dump = give = none = 0.0
    if soldier:
        extra += 1 if pool >> SPY & 1 else 0
        if extra:
            dump = table[avoid(n, size, suited + trumps)] - table[avoid(n, size, suited + trumps + extra)]
        none = 1.0 - cap
    elif pool & cats[SJ] & valuable:
        # the led suit's Jack is its only card of the suit
        give = table[avoid(n, size, suited - 1)] - table[avoid(n, size, suited)]
    return cap, max(0.0, dump), max(0.0, give), none


def value_two(k: list[int], facts: Facts, opp: Opponent, card: int, from_phantom: bool, table: list[float]) -> float:
    """What playing ``card`` (from the hand, or from the phantom deck) into the trick of
    ``facts`` (:func:`decision_facts`) is worth, 2 players: exact when following; a lead
    by the opponent's possible answers (``opp``, LR-13, LR-14)."""
    hand, army, jacks = k[HAND], k[ARMY + k[ME]], opp[5]
    keep = keep_two(card, k[TRUMP], army, hand, k[LIVE], jacks)
    if not from_phantom and card != SPY and hand >> SPY & 1 and jacks:
        # Holding the Spy, a void lets it fall on a Jack the opponent leads (LR-7, LR-11).
        if bit_count(suit_ranks(hand, card // 13)) == 1:
            keep -= TWO_VOID_BONUS
    if k[TRICK_N]:
        led = k[LED] if k[LED] >= 0 else (-1 if card == SPY else card // 13)
        seat = best(facts, k[ME], card, led, k[TRUMP])[0]
        us, them, none = stakes(facts, card, k[TRICK_N] + 1, k[FORCE])
        value = none if seat < 0 else us if k[ARMY + seat] == army else them
        if seat == k[ME]:
            value += TWO_LEAD_VALUE
        return value - keep
    answer_phantom = not from_phantom
    if answer_phantom and not opp[7]:
        answer_phantom = False
    if not answer_phantom and opp[6] == 0:
        answer_phantom = True
    if answer_phantom:
        cap, dump, give, none = phantom_answer(opp, card)
    else:
        cap, dump, give, none = hand_answer(opp, card, table)
    them, nobody = stakes(facts, card, k[TRICK_N] + 1, k[FORCE])[1:]
    value = cap * them + none * nobody
    value += give * 2.0 - dump * TWO_LOST_DUMP
    if card != SPY and card % 13 != JACK:
        value += max(0.0, 1.0 - cap - none) * TWO_LEAD_VALUE
    return value - keep


def value_draw(k: list[int], facts: Facts, opp: Opponent, table: list[float]) -> float:
    """``draw two`` is worth its best card among those the draw would allow (LR-14)."""
    n = k[MY_PHANTOM_N]
    if n < 2:
        return value_two(k, facts, opp, k[MY_PHANTOM], True, table) if n else -1e9
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
        value = value_two(k, facts, opp, a, True, table)
    if ok_b:
        value = max(value, value_two(k, facts, opp, b, True, table))
    return value


# --- the choice ----------------------------------------------------------------------------


def choose(k: list[int], legal: list[int], noise: list[float], table: list[float], work: list[float]) -> int:
    """The index in ``legal`` (the engine's legal actions, ascending) of the heuristic's
    action: the highest value, each raised by ``noise[i] * NOISE`` (the runner's
    tie-breaking numbers in [0, 1), one per action); ``table``: :func:`avoid_table`;
    ``work``: :data:`WORK` floats of work space."""
    if k[PLAYERS] == 4:
        return choose_four(k, legal, noise, table, work)
    facts, opp = decision_facts(k), opponent_facts(k)
    choice, best_value = 0, -1e9
    for i in range(len(legal)):
        a = legal[i]
        if a == DRAW:
            v = value_draw(k, facts, opp, table)
        elif a >= PHANTOM_BASE:
            v = value_two(k, facts, opp, a - PHANTOM_BASE, True, table)
        else:
            v = value_two(k, facts, opp, a, False, table)
        v += noise[i] * NOISE
        if v > best_value:
            choice, best_value = i, v
    return choice
