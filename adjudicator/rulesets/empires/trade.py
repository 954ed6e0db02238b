"""The trade phase (E5): the Master's token and side, the offers, the pick chain with one round
trip between two players, the evening out, and what goes back.

A token is a resource kind (`tax` or a good); a legendary good trades as a good of its kind
(ED8) and keeps being legendary, so each token moved is (kind, legendary).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t, term
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.model import TABLE_ORDER, PlayerState, Position
from adjudicator.rulesets.empires.orders import Give, Offer, Order, Take, TradeSide
from adjudicator.rulesets.kit.offers import pad_by_dice
from adjudicator.rulesets.kit.payment import TAX
from adjudicator.rulesets.kit.picking import pick_by_lines

Token = tuple[str, bool]  # (kind, legendary)
DEFAULT_SIDE = 3  # ED4: without an order, the available side nearest 3, the lower on a tie


def table_order_from(first: str | None, empires: Sequence[str]) -> list[str]:
    """E3.3: the table order Rome, Greece, Babylon, Egypt, Carthage, counting on from `first`."""
    ordered = [e for e in TABLE_ORDER if e in empires] + [e for e in empires if e not in TABLE_ORDER]
    if first in ordered:
        start = ordered.index(first)
        ordered = ordered[start:] + ordered[:start]
    return ordered


def label(token: Token) -> str:
    """A token as reports name it, in the reader's language: `wine`, `legendary wine`."""
    kind, legendary = token
    return t("legendary %(good)s", good=term("card", kind)) if legendary else term("card", kind)


@dataclass
class _Chain:
    face_up: dict[str, list[Token]]
    received: dict[str, list[Token]]
    given: Counter[str] = field(default_factory=Counter)
    last: list[tuple[str, str]] = field(default_factory=list)
    done: set[tuple[str, str]] = field(default_factory=set)  # (A, B): A took from B, B took back

    def blocked(self, picker: str, source: str) -> bool:
        """E5.4: once A has taken from B and B has taken back from A, A may not take from B
        again, for the rest of this trade."""
        return (picker, source) in self.done

    def take(self, picker: str, source: str, token: Token) -> None:
        if self.last and self.last[-1] == (source, picker):
            self.done.add((source, picker))  # a round trip: source took from picker, picker takes back
        self.face_up[source].remove(token)
        self.received[picker].append(token)
        self.given[source] += 1
        self.last.append((picker, source))


def resolve_trade(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice
) -> tuple[Position, list[Event]]:
    events: list[Event] = []
    master = position.titles.get(Title.COMMERCE)
    if master is None:
        events.append(event("trade_none", reason=t("nobody is Master of Commerce"), rule="E5.1"))
        return position, events
    position, size = _choose_side(board, position, master, orders.get(master, ()), events)
    if size == 0:
        events.append(event("trade_none", reason=t("the side chosen is 0"), rule="E5.1"))
        return position, events
    held = {e: _tokens(p) for e, p in position.players.items()}
    choosers = {e for e in position.playing if position.effects(board, e, "trade_choice")}
    participants = []
    for empire in table_order_from(master, position.playing):
        if empire in choosers or sum(held[empire].values()) >= size:
            participants.append(empire)
        else:
            events.append(event("trade_sits_out", player=empire, tokens=sum(held[empire].values()), rule="E5.2"))
    offers = {e: _offer(e, held[e], orders.get(e, ()), size, dice, events, free=e in choosers) for e in participants}
    participants = [e for e in participants if offers[e]]
    if len(participants) < 2:
        events.append(event("trade_none", reason=t("fewer than two players put tokens up"), rule="E5.2"))
        return position, events
    chain = _Chain({e: list(offers[e]) for e in participants}, {e: [] for e in participants})
    events.append(event("offers", offers={e: [label(t) for t in offers[e]] for e in participants}, rule="E5.3"))
    # ED21: a Master who sits out (E5.2) does not open the chain; the first participant after
    # him in table order opens it and evens it out, as the Master would
    opener = master if master in participants else participants[0]
    _run_chain(board, opener, participants, chain, held, orders, events)
    for empire in participants:
        if chain.face_up[empire]:
            events.append(
                event("trade_return", player=empire, tokens=[label(t) for t in chain.face_up[empire]], rule="E5.6")
            )
        held[empire].update(chain.face_up[empire])
        held[empire].update(chain.received[empire])
    _even_out(board, opener, chain, held, orders.get(opener, ()), events)
    players = {e: _with_tokens(p, held[e]) for e, p in position.players.items()}
    return replace(position, players=players), events


def free_tokens(board: Board, position: Position) -> list[int]:
    """E5.7: the trade tokens (by index) the Master may still turn: those not used yet; once all
    three are used, all three are free again."""
    used = position.tokens_used if len(position.tokens_used) < len(board.trade_tokens) else ()
    return [i for i in range(len(board.trade_tokens)) if i not in used]


def side_played(board: Board, position: Position, wanted: int | None) -> tuple[int, int]:
    """E5.1, E5.7, ED4: (the side, its token) a `trade` line naming `wanted` plays: that side on a
    token he may still turn, else (or without a line) the free side nearest 3, the lower on a tie."""
    sides = [(side, i) for i in free_tokens(board, position) for side in board.trade_tokens[i]]
    chosen = next(((s, i) for s, i in sides if s == wanted), None)
    return chosen or min(sides, key=lambda si: (abs(si[0] - DEFAULT_SIDE), si[0]))


def _choose_side(
    board: Board, position: Position, master: str, orders: Sequence[Order], events: list[Event]
) -> tuple[Position, int]:
    """E5.1, E5.7, ED4: the side `side_played` gives his last `trade` line."""
    wanted = [o for o in orders if isinstance(o, TradeSide)]
    size, index = side_played(board, position, wanted[-1].size if wanted else None)
    if not wanted:
        why, line = t("default (ED4)"), None
    elif size != wanted[-1].size:
        why, line = t("%(side)s is on no token he still holds", side=wanted[-1].size), wanted[-1].line
    else:
        why, line = t("his order"), wanted[-1].line
    free = free_tokens(board, position)
    used = tuple(i for i in position.tokens_used if i not in free)
    events.append(
        event(
            "trade_side",
            player=master,
            size=size,
            token=list(board.trade_tokens[index]),
            why=why,
            line=line,
            rule="E5.1",
        )
    )
    return replace(position, tokens_used=(*used, index), trade_size=size), size


def _tokens(player: PlayerState) -> Counter[Token]:
    tokens: Counter[Token] = Counter()
    for kind, n in player.resources.items():
        tokens[(kind, False)] += n
    for kind, n in player.legendary.items():
        tokens[(kind, True)] += n
    return tokens


def _with_tokens(player: PlayerState, tokens: Counter[Token]) -> PlayerState:
    resources = {k: n for (k, legendary), n in sorted(tokens.items()) if n and not legendary}
    legendary = {k: n for (k, is_legendary), n in sorted(tokens.items()) if n and is_legendary}
    return replace(player, resources=MappingProxyType(resources), legendary=MappingProxyType(legendary))


def _offer(
    empire: str, held: Counter[Token], orders: Sequence[Order], size: int, dice: Dice, events: list[Event], free: bool
) -> list[Token]:
    """E5.3: the first tokens of his ranked lists that he holds, up to the size; the rest by the
    dice, but none is rolled for a forced choice (what he has left just fills the offer, or is
    all one token). With `free` (E11.1 trade choice) only what he lists, none to the size."""
    offered: list[Token] = []
    for order in orders:
        if not isinstance(order, Offer):
            continue
        for kind in order.tokens:
            left = held - Counter(offered)
            token = (kind, False) if left[(kind, False)] else (kind, True)
            if len(offered) < size and left[token] > 0:
                offered.append(token)
    purpose = t("E5.3 token offered for %(empire)s", empire=empire)
    by_dice = 0 if free else pad_by_dice(offered, held, size, dice, purpose, roll_forced=False)
    if by_dice:
        events.append(event("offer_by_dice", player=empire, tokens=by_dice, rule="E5.3"))
    held.subtract(offered)
    return offered


def _run_chain(
    board: Board,
    master: str,
    participants: list[str],
    chain: _Chain,
    held: Mapping[str, Counter[Token]],
    orders: Mapping[str, Sequence[Order]],
    events: list[Event],
) -> None:
    prefs = {e: [o for o in orders.get(e, ()) if isinstance(o, Take)] for e in participants}
    picker = master
    while True:
        holders = [e for e in participants if chain.face_up[e]]
        if not holders:
            events.append(event("trade_end", reason=t("every token offered is taken"), rule="E5.6"))
            return
        sources = [
            e for e in table_order_from(picker, participants)[1:] if chain.face_up[e] and not chain.blocked(picker, e)
        ]
        if not sources:
            events.append(
                event("trade_end", reason=t("%(empire)s has nobody left to take from", empire=picker), rule="E5.6")
            )
            return
        holding = held[picker] + Counter(chain.received[picker])
        source, token, why = _pick(board, picker, sources, chain, holding, prefs[picker])
        chain.take(picker, source, token)
        events.append(event("pick", player=picker, source=source, token=label(token), why=why, rule="E5.4"))
        picker = source


def _pick(
    board: Board, picker: str, sources: list[str], chain: _Chain, holding: Counter[Token], prefs: list[Take]
) -> tuple[str, Token, str]:
    """His first usable `take` line (used up), else ED18's default: both the best token for him
    among all that may be taken (`picking.best_pick`), so a line naming a class (`take good`,
    `take any`) takes what the default would take of that class."""

    def rank(token: Token) -> tuple[int, int, int, bool]:
        return _preference(board, token, holding)

    def offered(source: str) -> list[Token]:
        return chain.face_up[source]

    source, token, line = pick_by_lines(sources, offered, rank, prefs, _matches)
    return source, token, t("line %(line)s", line=line.line) if line is not None else t("default (ED18)")


def _matches(choice: str, token: Token) -> bool:
    kind = token[0]
    return choice == "any" or (choice == "good" and kind != TAX) or choice == kind


def _preference(board: Board, token: Token, holding: Counter[Token]) -> tuple[int, int, int, bool]:
    """ED18: a good he holds none of, then a tax token, then the good he holds fewest of; ties
    by the data file's order of goods; an ordinary token before a legendary one."""
    kind, legendary = token
    goods = list(board.commodities)
    if kind == TAX:
        return (1, 0, 0, legendary)
    count = holding[(kind, False)] + holding[(kind, True)]
    return (0 if count == 0 else 2, count, goods.index(kind) if kind in goods else len(goods), legendary)


def _even_out(
    board: Board,
    master: str,
    chain: _Chain,
    held: Mapping[str, Counter[Token]],
    orders: Sequence[Order],
    events: list[Event],
) -> None:
    """E5.5: the player left one short gets one token from the Master's whole holding."""
    short = [e for e in chain.received if len(chain.received[e]) < chain.given[e]]
    if not short or master not in held:
        return
    empire = short[0]
    mine = held[master]
    wanted = [kind for o in orders if isinstance(o, Give) for kind in o.tokens]
    gift = next(((k, leg) for k in wanted for leg in (False, True) if mine[(k, leg)] > 0), None)
    why = t("his give line") if gift else t("default (ED18)")
    if gift is None:
        goods = sorted(
            (t for t in mine if mine[t] > 0 and t[0] != TAX), key=lambda t: (-mine[t], _preference(board, t, mine))
        )
        gift = goods[0] if goods else ((TAX, False) if mine[(TAX, False)] else None)
    if gift is None:
        events.append(
            event("evening_out", player=master, to=empire, token=None, why=t("he holds nothing"), rule="E5.5")
        )
        return
    mine[gift] -= 1
    held[empire][gift] += 1
    events.append(event("evening_out", player=master, to=empire, token=label(gift), why=why, rule="E5.5"))
