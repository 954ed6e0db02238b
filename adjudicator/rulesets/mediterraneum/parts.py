"""What each line of a turn reads and may change, in *parts* of the game (the purse, a ship, an
army, the cities' owners...): what the validator's rehearsal (rehearsal.py) needs to tell a
line whose outcome is certain from one that an earlier line's dice may still change. Each
handler of the engine is described here: every part it reads to refuse or carry out a line, and
every part it may change; a refusal, by its message, reads only the checks made to reach it."""

from __future__ import annotations

from adjudicator.core.i18n import Msg
from adjudicator.rulesets.mediterraneum import orders

# Parts of the game a line may read or change. `ship:N` and `army:N` are his own pieces; `ship:*`
# and `army:*` stand for any of them; `fleet` and `armies` are where every player's pieces stand,
# and how many there are (the limits of T:19, the ships and armies bought this turn). His purse
# is `purse`, or `gain` while it is only known to hold at least what was rehearsed (after a sale
# whose die decides the price: a purchase that was paid stays paid); `purses` are the others'.
PURSE, GAIN, PURSES = "purse", "gain", "purses"
FLEET, ARMIES, HOLD, WANTS, STORES, BUILT = "fleet", "armies", "hold", "wants", "stores", "built"
ART, WANT_CARDS, TACTICS, PATRONAGE, BUYS = "art", "want_cards", "tactics", "patronage", "buys"
ANY_SHIP, ANY_ARMY, ALL = "ship:*", "army:*", "*"  # ALL: anything at all
SHIP, ARMY = "SHIP", "ARMY"  # in REASONS: the ship or armies the line names

# What a refusal reads, by its message: the checks the handler made to reach it included. A
# refusal not listed here reads everything (ALL), and so is left to the engine once anything is
# unsettled.
REASONS: dict[str, frozenset[str]] = {
    text: frozenset(parts)
    for parts, texts in (
        ({SHIP}, (
            "he has no ship %(ship)s on the board",
            "ship %(ship)s carries nothing",
            "ship %(ship)s carries no good",
            "ship %(ship)s sells only in a city's harbour",
            "ship %(ship)s is at sea; it loads in a harbour or on a coast",
            "ship %(ship)s already carries %(cargo)s; one cargo a ship (T:39)",
            "ship %(ship)s has rolled for a sale this turn already",
            "there is no such ship",
        )),
        ({ARMY}, (
            "he has no army %(army)s on the board",
            "army %(army)s has moved this turn",
            "army %(army)s is aboard a ship; it goes ashore with 'army %(army)s land'",
            "army %(army)s has fought this turn; each army fights once a turn",
            "the armies must have stood in %(land)s since an earlier turn (T:77)",
            "army %(army)s is aboard a ship: cities are taken by land; it lands first and attacks from the "
            "land in a later turn (T:91)",
            "the attacking armies must stand together in one land",
            "army %(army)s is cavalry already or stands in no city's land",
        )),
        ({HOLD}, (
            "%(city)s is not his province or capital",
            "%(city)s is not his city",
            "he has an empire already",
            "%(city)s is not his province",
            "he builds only once he has founded his empire",
            "art patronage comes with an empire",
            "armies are raised by an empire",
            "%(city)s is his own",
            "armies are raised from the first tax round that begins after his founding (T:75)",
            "%(city)s is not a city he has taken",
        )),
        ({SHIP, HOLD}, (
            "%(good)s is bought only at his own city whose land produces it",
            "ship %(ship)s is not at his capital",
            "%(good)s is produced in his capital's land and may not be stored there (T:67)",
        )),
        ({SHIP, HOLD, ART}, (
            "art is loaded at his capital, and only art he holds",
        )),
        ({SHIP, HOLD, STORES}, (
            "his capital has no warehouse with room; he builds one first",
        )),
        ({SHIP, HOLD, WANTS, WANT_CARDS}, (
            "%(city)s does not want %(cargo)s",
        )),
        ({SHIP, HOLD, BUYS}, (
            "%(owner)s has no standing offer for %(cargo)s at %(city)s",
            "%(owner)s offers %(price)s, below his floor of %(floor)s",
        )),
        ({SHIP, HOLD, PURSE, BUYS}, (
            "%(owner)s cannot pay the %(price)s he offered",
        )),
        ({SHIP, HOLD, WANTS, STORES, WANT_CARDS}, (
            "%(city)s has no want, warehouse room or use for %(cargo)s",
        )),
        ({SHIP, ARMIES}, (
            "ship %(ship)s carries a horse for cavalry and nothing else",
        )),
        ({SHIP, FLEET}, (
            "%(space)s already holds %(count)s ships (T:19)",
            "%(space)s already holds %(count)s ships, the ships bought this turn included (T:19)",
        )),
        ({SHIP, ARMY}, (
            "%(to)s does not adjoin %(where)s",
        )),
        ({FLEET}, (
            "he has all his %(count)s ships",
            "the coast holds %(count)s ships at most (T:19)",
        )),
        ({HOLD, ARMIES}, (
            "he has all his %(count)s armies",
            "%(land)s holds %(count)s armies at most",
        )),
        ({ARMY, HOLD}, (
            "his army is still in %(city)s; it becomes a province once the army leaves",
        )),
        ({HOLD, BUILT}, (
            "he has a %(building)s already; one of each (T:74)",
            "he has a big temple already; one of each size (T:74)",
            "he has a little temple already; one of each size (T:74)",
        )),
        ({BUILT}, (
            "one building a turn (T:73)",
            "no %(building)s is left to build",
        )),
        ({PATRONAGE}, (
            "each player buys one art patronage card in a game (T:51)",
            "no art patronage card is left",
            "he has no artist",
        )),
        ({BUYS}, (
            "he has no such standing offer",
        )),
        ({TACTICS}, (
            "he holds no %(card)s card",
        )),
        ({ARMY, ARMIES}, (
            "another player's army holds %(land)s; attack it from next door (MD42)",
            "%(land)s holds its 3 armies (T:19)",
            "no other player's army stands there, in a land next to %(land)s",
        )),
        ({SHIP, ARMY, ARMIES, FLEET}, (
            "ship %(ship)s is not at a harbour or coast of army %(army)s's land",
            "army %(army)s has moved, or ship %(ship)s carries an army",
            "cavalry needs a second empty ship of his there for its horse (T:96)",
            "army %(army)s is not aboard a ship at a harbour or coast",
            "another player's army holds %(land)s (MD42)",
        )),
        ({ARMY, ANY_SHIP, HOLD}, (
            "no horse: bring one by ship, or be in a land of his own city that breeds them",
        )),
        ({SHIP, ANY_SHIP, ARMIES, FLEET}, (
            "ship %(ship)s sails with ship %(partner)s, cavalry and its horse, one space a turn",
            "%(space)s has no room for both of cavalry's ships (T:19, T:96)",
            "ship %(ship)s is no warship at sea (an army aboard makes one, T:90)",
            "%(owner)s's ship %(ship)s is a warship; only merchant ships are captured",
            "%(owner)s's ship %(ship)s is not within reach (T:92, T:94)",
        )),
        ({SHIP, ARMIES}, (
            "ship %(ship)s has no move left this turn",
        )),
        ({ARMY}, (
            "army %(army)s has no move left this turn",
        )),
    )
    for text in texts
}  # fmt: skip
SHORT = ("it costs %(cost)s and only %(left)s is left", "it costs %(cost)s and nothing is left")
PRICED_BY = {
    orders.Found: {HOLD},
    orders.Patron: {PATRONAGE},
    orders.Mount: {ARMY, ANY_SHIP},
}  # what the price reads besides the purse


def named(order: orders.Order) -> set[str]:
    """The parts of the pieces the line names: its ship, its armies."""
    parts = (
        {f"ship:{order.ship}"}
        if isinstance(
            order, orders.Load | orders.Sail | orders.Sell | orders.Dump | orders.Store | orders.Capture | orders.Embark
        )
        else set()
    )
    if isinstance(order, orders.March | orders.Embark | orders.Land | orders.Mount):
        parts.add(f"army:{order.army}")
    if isinstance(order, orders.Attack):
        parts |= {f"army:{n}" for n in order.armies}
    return parts


def reads_of_refusal(order: orders.Order, reason: object) -> set[str]:
    """What the refusal's checks read: by its message (REASONS), or everything."""
    text = reason.text if isinstance(reason, Msg) else str(reason)
    if text in SHORT:  # a sale before it may have filled the purse
        parts = {PURSE, GAIN, *PRICED_BY.get(type(order), set())}
    elif text in REASONS:
        parts = set(REASONS[text])
    else:
        return {ALL}
    if SHIP in parts or ARMY in parts:
        parts = (parts - {SHIP, ARMY}) | named(order)
    return parts


def reads(order: orders.Order) -> set[str]:
    """Every part whose change could make the line, carried out as rehearsed, go otherwise. A
    purse known to hold at least what was rehearsed (`gain`) pays whatever was paid in it."""
    own = named(order)
    match order:
        case orders.BuyShip():
            return {HOLD, FLEET, PURSE}
        case orders.Load():
            return own | {ARMIES, HOLD, ART, PURSE}
        case orders.Sail() | orders.Capture():
            return own | {ANY_SHIP, FLEET, ARMIES, TACTICS}
        case orders.Sell():
            return own | {HOLD, WANTS, STORES, WANT_CARDS, BUYS, PURSES, ART}
        case orders.Dump():
            return own
        case orders.Store():
            return own | {HOLD, STORES}
        case orders.March():
            return own | {ARMIES}
        case orders.Embark() | orders.Land():
            return own | {ANY_SHIP, ARMIES, FLEET}
        case orders.Mount():
            return own | {ANY_SHIP, HOLD, PURSE}
        case orders.Attack():
            return own | {ARMIES, HOLD, WANTS, BUILT, TACTICS, PURSES, ART, WANT_CARDS}
        case orders.Build():
            return {HOLD, BUILT, STORES, PURSE}
        case orders.RaiseArmy() | orders.Upgrade():
            return {HOLD, ARMIES, PURSE}
        case orders.Patron():
            return {HOLD, PATRONAGE, PURSE}
        case orders.Dismiss():
            return {PATRONAGE}
        case orders.Pay():
            return {PURSE}
        case orders.StandingBuy():
            return {HOLD, BUYS}
        case orders.CancelBuy():
            return {BUYS}
    return {ALL}


def writes(order: orders.Order) -> set[str]:
    """Every part the line may change."""
    own = named(order)
    match order:
        case orders.BuyShip():
            return {FLEET, PURSE}
        case orders.Load():
            return own | {ART, PURSE}
        case orders.Sail() | orders.Capture():  # a storm or a fight sinks ships, with the armies aboard
            return own | {ANY_SHIP, FLEET, ANY_ARMY, ARMIES, TACTICS}
        case orders.Sell():
            return own | {WANTS, STORES, WANT_CARDS, BUYS, GAIN, PURSES, ART}
        case orders.Dump():
            return own
        case orders.Store():
            return own | {STORES}
        case orders.March() | orders.Embark() | orders.Land():
            return own | {ARMIES}
        case orders.Mount():
            return own | {ANY_SHIP, PURSE}
        case orders.Attack():
            return own | {ARMIES, HOLD, WANTS, TACTICS, GAIN, PURSES, ART, WANT_CARDS}
        case orders.Build():
            return {BUILT, STORES, PURSE}
        case orders.RaiseArmy():
            return {ARMIES, PURSE}
        case orders.Patron():
            return {PATRONAGE, PURSE}
        case orders.Dismiss():
            return {PATRONAGE}
        case orders.Upgrade():
            return {HOLD, PURSE}
        case orders.Pay():
            return {PURSE, PURSES}
        case orders.StandingBuy() | orders.CancelBuy():
            return {BUYS}
    return {ANY_SHIP, ANY_ARMY, FLEET, ARMIES, PURSE, PURSES, HOLD, WANTS, STORES, BUILT, ART, WANT_CARDS, TACTICS}
