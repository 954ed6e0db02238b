"""Random but plausible order text for any player and phase: for the invariant tests, the
benchmarks and the soak (tests/soak.py). Mostly sensible, sometimes wrong, never filtered: the
validator decides. `junk_lines` and `huge_lines` add what careless or hostile players send."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.game.game import default_board_path, load_board
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, GENERAL_HEROES, WONDERS, Civ
from adjudicator.rulesets.mare_nostrum.setup import setup_area

RULESET = find_ruleset("mare-nostrum")
BOARD = load_board(RULESET, default_board_path(RULESET))

CARDS = list(CARD_TOTALS)
PIECES = ["city", "caravan", "temple", "market", "fortress", "legion", "trireme", "influence"]
BUYABLE = [*GENERAL_HEROES, *WONDERS, "Julius Caesar", "Hannibal"]


def random_orders(rng: random.Random, position: Any, civ: str) -> str:
    """Plausible order text: mostly sensible, sometimes wrong, never filtered by us."""
    data = RULESET.position_to_data(position)
    hand = [c for c, n in data["players"][civ]["hand"].items() for _ in range(n)]
    mine = [p for p, s in data["provinces"].items() if s["influence"] == civ]
    legions = [p for p, s in data["provinces"].items() if s["legions"].get(civ)]
    lines: list[str] = []
    if data["phase"] == "setup":
        return "\n".join(_setup_orders(rng, civ))
    if data["phase"] == "trade":
        lines.append(f"trade {rng.randint(0, 4)}")
        if hand:
            lines.append("offer " + ", ".join(rng.sample(hand, min(len(hand), rng.randint(1, 4)))))
        lines += [f"take {rng.choice([*CARDS, 'commodity', 'any'])}" for _ in range(rng.randint(0, 3))]
        lines.append(f"give {rng.choice(CARDS)}")
    elif data["phase"] == "build":
        lines.append("sequence " + ", ".join(rng.sample(list(data["players"]), 3)))
        for _ in range(rng.randint(0, 4)):
            place = rng.choice(mine + list(BOARD.provinces)) if mine else rng.choice(list(BOARD.provinces))
            lines.append(_build_line(rng, place))
        if rng.random() < 0.2:
            lines.append(f"buy {rng.choice(BUYABLE)}")
        if rng.random() < 0.3:
            lines.append(f"exchange {rng.choice(CARDS)} for tax")
        lines.append(f"keep {rng.randint(0, 2)} tax")
    else:
        lines.append("sequence " + ", ".join(rng.sample(list(data["players"]), 2)))
        for port in [p for p, s in data["provinces"].items() if s["port"].get(civ)]:
            lines.append(f"sail trireme from {port} to {rng.choice(BOARD.provinces[port].seas)}")
        for sea in [s for s, t in data["seas"].items() if t["triremes"].get(civ)]:
            lines.append(f"sail trireme from {sea} to {rng.choice(BOARD.seas[sea].seas)}")
            lines.append(f"attack {rng.choice(list(data['players']))} in {sea}")
        for origin in legions:
            neighbours = list(BOARD.provinces[origin].land) or list(BOARD.provinces)
            then = rng.choice(["", " then occupy", " then convert", " then sack city", " then sack temple"])
            count = rng.randint(1, data["provinces"][origin]["legions"][civ])
            lines.append(f"move {count} legions from {origin} to {rng.choice(neighbours)}{then}")
        lines.append(rng.choice(["casualties fortress, legion", "casualties legion", "helen on", "artemis gold"]))
    return "\n".join(lines)


def _setup_orders(rng: random.Random, civ: str) -> list[str]:
    """R2.4: 36 points of influence, buildings and units around the capital, maybe the hero."""
    area = sorted(setup_area(BOARD, Civ(civ)))
    capital = BOARD.civilizations[civ].capital
    lines = [f"build influence in {place}" for place in rng.sample(area, min(len(area), rng.randint(0, 4)))]
    for _ in range(rng.randint(0, 8)):
        lines.append(_build_line(rng, rng.choice([capital, *area])))
    if rng.random() < 0.4:
        lines.append(f"buy {BOARD.civilizations[civ].hero}")
    return lines


def _build_line(rng: random.Random, place: str) -> str:
    """A build order of a random piece in `place` (a caravan on one of its icons, if it has any)."""
    piece = rng.choice(PIECES)
    if piece == "caravan" and BOARD.provinces[place].commodities:
        return f"build caravan on {rng.choice(BOARD.provinces[place].commodities)} in {place}"
    return f"build {piece} in {place}"


JUNK = [
    "",
    "   ",
    "hello moderator, here are my orders!",
    "build legion in Atlantis",
    "build legoin in Roma",
    "move 2 legions from Roma to Roma",
    "offer unicorns, dragons",
    "take gold from Atlantis",
    "sequence Rome, Rome, Rome",
    "sail trireme from Roma to Carthago",
    "attack nobody in nowhere",
    "buy Pyramids with 12 tax",
    "buy the moon",
    "keep everything",
    "trade -3",
    "trade 3.5",
    "then occupy",
    "; ; ;",
    "> quoted: build 8 legions in Roma",
    "# a comment: build city in Roma",
    "<script>alert('x')</script>",
    "[url=http://example.org]click[/url] [b]bold[/b] [img]x[/img]",
    "**bold** _it_ `code` | a | b | <b>x</b> &amp; &lt;",
    "{{ 7 * 7 }} {% raw %} {# not a comment #}",
    "build city in {{ secret }}",
    "büild légion in Rōma",
    "ＢＵＩＬＤ ＬＥＧＩＯＮ ＩＮ ＲＯＭＡ",
    "move legion from Roma to Ravenna \u202e reversed",
    "zero\u200bwidth build\u200b legion in Roma",
    "tab\tseparated\tbuild\tlegion",
    "control \x00 \x1b[31m red \x7f",
    "vertical\x0btab \x0c form feed \x1c file sep \x85 next line \u2028 line sep",
    "emoji 🏛️⚔️🚢 build temple in Roma 🙏",
]


def junk_lines(rng: random.Random, count: int) -> list[str]:
    """Lines a moderator gets from real players: chatter, typos, wrong phases, markup and
    template syntax, odd Unicode and control characters, and one very long line now and then."""
    lines = [rng.choice(JUNK) for _ in range(count)]
    if rng.random() < 0.2:
        lines.append("build legion in " + "Roma " * rng.randint(20, 400))
    if rng.random() < 0.2:
        lines.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 200))))
    return lines


HUGE = [10, 99, 1000, 99999, 10**12, 10**40]


def huge_lines(rng: random.Random, position: Any, civ: str) -> list[str]:
    """Orders with absurd counts for the phase the position is in (`build 1000 legions in X`)."""
    data = RULESET.position_to_data(position)
    n = rng.choice(HUGE)
    capital = BOARD.civilizations[civ].capital
    mine = sorted(p for p, s in data["provinces"].items() if s["influence"] == civ) or [capital]
    place = rng.choice(mine)
    card = rng.choice(CARDS)
    if data["phase"] == "trade":
        return [f"trade {n}", f"offer {n} {card}", f"offer {card} x{n}", f"give {n} {card}"]
    if data["phase"] in ("build", "setup"):
        piece = rng.choice(["legions", "triremes", "fortresses", "cities", "temples", "markets", "influence"])
        lines = [f"build {n} {piece} in {place}", f"build {n} legions in {capital}"]
        if data["phase"] == "build":
            lines += [f"build {n} fortresses in {place} with {n} tax", f"keep {n} tax", f"keep {n} {card}"]
        return lines
    neighbours = list(BOARD.provinces[place].land) or [place]
    lines = [f"move {n} legions from {place} to {rng.choice(neighbours)}", f"casualties {', '.join(['legion'] * 50)}"]
    if BOARD.provinces[place].seas:
        lines.append(f"sail {n} triremes from {place} to {rng.choice(BOARD.provinces[place].seas)}")
    return lines


def purposeful_lines(rng: random.Random, position: Any, civ: str) -> list[str]:
    """Orders of a player with a plan: legions bought in his capital with the cards he holds,
    influence next door, and legions marched at his neighbours (neutral or not), so that
    battles, occupation, conversion and war (R8) happen even in short games."""
    data = RULESET.position_to_data(position)
    player, provinces = data["players"][civ], data["provinces"]
    capital = BOARD.civilizations[civ].capital
    if data["phase"] == "build":
        legions = min(sum(player["hand"].values()) // 3, player["stock"]["legion"])
        lines = [f"build {legions} legions in {capital}"] if legions > 1 else [f"build legion in {capital}"]
        mine = sorted(p for p, s in provinces.items() if s["influence"] == civ)
        free = sorted({n for p in mine for n in BOARD.provinces[p].land if provinces[n]["influence"] is None})
        if free and rng.random() < 0.5:
            lines.insert(0, f"build influence in {rng.choice(free)}")
        return lines
    if data["phase"] != "military":
        return []
    lines = []
    for origin, state in sorted(provinces.items()):
        count = state["legions"].get(civ, 0)
        land = BOARD.provinces[origin].land
        armed = [n for n in land if {*provinces[n]["legions"], *provinces[n]["fortresses"]} - {civ}]
        foreign = [n for n in land if provinces[n]["influence"] not in (None, civ)]
        targets = armed if armed and rng.random() < 0.8 else foreign
        if count and targets and rng.random() < 0.8:
            then = rng.choice(["", " then occupy", " then convert", " then sack city", " then sack temple"])
            lines.append(f"move {rng.randint(1, count)} legions from {origin} to {rng.choice(targets)}{then}")
    if lines and rng.random() < 0.5:
        lines.append(rng.choice(["casualties fortress, legion", "casualties legion, fortress"]))
    return lines


# ---- Mare Nostrum: Empires ------------------------------------------------------------------

EMPIRES_LEADERS = {"purchase": "political", "military": "military"}  # who orders the turns (E3.3)
EMPIRES_WRONG = [
    "build legion in Atlantis",
    "build 3 legions in Latium with wine, wine",
    "build legendary city in Roma",
    "take unicorn",
    "offer tax, tax, tax, tax, tax, tax, tax, tax",
    "trade 9",
    "sail trireme from Latium to Aegyptus",
    "move legion from Roma to Roma then sack temple",
    "sack market in Atlantis",
    "occupy city, temple in Roma",
    "convert in Carthago",
    "title commerce to nobody",
    "legendary Babylon tax",
    "colossus unicorn",
    "peace Atlantis",
    "buy Pyramids with 40 tax",
]


def empires_orders(rng: random.Random, game: Any, civ: str) -> list[str]:
    """An Empires player's lines: a random part of his order form (each line accepted alone,
    not all together; at least one order line, as `random_orders` gives for 2003, or the text
    is refused), maybe in the form's order (ranked offers and takes), maybe his turn order
    if he leads the phase (E3.3, ED16: a partial one too), now and then a line of another
    player's form or one that is wrong."""
    from adjudicator.reports.order_form import order_form

    form = [line.order for line in order_form(game, game.position, civ)]
    chosen = rng.sample(form, min(len(form), rng.randint(1, 9))) or [f"sequence {civ}"]  # an order line, as 2003's
    if rng.random() < 0.5:
        chosen = [line for line in form if line in chosen]
    data = game.state_data()
    leader = EMPIRES_LEADERS.get(data["phase"])
    playing = list(data["players"])
    if leader and data["titles"].get(leader) == civ and rng.random() < 0.4:
        chosen.insert(0, "sequence " + ", ".join(rng.sample(playing, rng.randint(1, len(playing)))))
    others = [other for other in playing if other != civ]
    if others and rng.random() < 0.15:
        theirs = [line.order for line in order_form(game, game.position, rng.choice(others))]
        chosen += rng.sample(theirs, min(len(theirs), 2))
    if rng.random() < 0.2:
        chosen.insert(rng.randint(0, len(chosen)), rng.choice(EMPIRES_WRONG))
    return chosen


def empires_huge_lines(rng: random.Random, game: Any, civ: str) -> list[str]:
    """Empires orders with absurd counts for the phase (`build 1000 legions in X`)."""
    from adjudicator.rulesets.empires.terms import place_names

    board, data, names = game.board, game.state_data(), place_names(game.board)
    n, tokens = rng.choice(HUGE), rng.choice(HUGE)
    mine = sorted(p for p, s in data["provinces"].items() if s["influence"] == civ) or sorted(data["provinces"])
    place = rng.choice(mine)
    if data["phase"] == "trade":
        return [f"trade {n}", f"offer {tokens} tax", f"offer tax x{tokens}", f"give {tokens} tax", f"take {n} tax"]
    if data["phase"] == "purchase":
        piece = rng.choice(["legions", "fortresses", "caravans", "markets", "temples", "cities", "influence"])
        lines = [f"build {n} {piece} in {names[place]}", f"build {n} legions in {names[place]} with {tokens} tax"]
        if board.provinces[place].seas:
            lines.append(f"build {n} triremes in {names[rng.choice(board.provinces[place].seas)]}")
        return lines
    neighbours = list(board.provinces[place].land) or [place]
    lines = [f"move {n} legions from {names[place]} to {names[rng.choice(neighbours)]}"]
    if board.provinces[place].seas:
        sea = rng.choice(board.provinces[place].seas)
        lines.append(f"sail {n} triremes from {names[sea]} to {names[rng.choice(board.seas[sea].seas or (sea,))]}")
    return lines


# ---- Mare Mediterraneum ---------------------------------------------------------------------

MEDITERRANEUM_WRONG = [
    "buy ship at Atlantis",
    "ship 1 load unicorns",
    "ship 7 to Mare Atlanticum Septentrionale",
    "ship 1 to ROMA, ROMA, ROMA",
    "ship 1 sell at least M",
    "ship 1 capture Purple ship 1",
    "army 1 to Atlantis",
    "army 1 and 1 attack ROMA",
    "army 1 attack ROMA with unicorns",
    "found empire at Atlantis",
    "build the colosseum",
    "raise 3 armies",
    "upgrade ROMA",
    "gift to Purple",
    "coup nobody",
    "pay -3 to Blue",
    "pay IIII to Blue",
    "pay 0 to Red",
    "bid IIV",
    "bid III for Atlantis",
    "buy wine at ROMA for up to MMMMMMMMMMMMM",
    "cancel buy unicorns at ROMA",
    "pass pass",
]


def mediterraneum_orders(rng: random.Random, game: Any, civ: str) -> list[str]:
    """A Mare Mediterraneum player's lines, as `empires_orders` gives an Empires player's: a
    random part of his order form (only the player to move has one, or everyone in an auction),
    often a trader's and conqueror's plan (`mediterraneum_plan`: sail to where the cargo is
    wanted and sell, found the empire when it is affordable, march on cities), now and then a
    bid of his own, a line of another player's form or one that is wrong."""
    from adjudicator.reports.order_form import order_form

    position = game.position
    form = [line.order for line in order_form(game, position, civ)]
    chosen = rng.sample(form, min(len(form), rng.randint(1, 5 if len(form) > 12 else 3)))
    if rng.random() < 0.75:
        plan = mediterraneum_plan(rng, game.board, position, civ)
        chosen = plan + [line for line in chosen if line not in plan and not line.startswith("found ")]
    if str(position.phase) == "auction" and rng.random() < 0.5:
        lowest = max(0, position.auctions[0].min_bid - 1)
        chosen = [f"bid {rng.randint(lowest, max(lowest, position.players[civ].money + 1))}"]
    if not chosen:  # not his turn: an order line all the same, as 2003's players always send one
        chosen = [rng.choice(["pass", *form[:3]] if form else ["pass"])]
    others = [other for other in position.order if other != civ]
    if others and rng.random() < 0.15:
        theirs = [line.order for line in order_form(game, position, rng.choice(others))]
        chosen += rng.sample(theirs, min(len(theirs), 2))
    if rng.random() < 0.2:
        chosen.insert(rng.randint(0, len(chosen)), rng.choice(MEDITERRANEUM_WRONG))
    return chosen


def mediterraneum_plan(rng: random.Random, board: Any, position: Any, civ: str) -> list[str]:
    """Orders of a player with a plan, so that empires are founded, art and buildings bought and
    cities attacked within the soak's rounds: found the empire as soon as X is in hand, carry
    goods to the cities that want them and sell, buy a ship when he has none, and with an empire
    build, raise armies and march them on cities."""
    from adjudicator.rulesets.mediterraneum.model import Status

    if str(position.phase) == "auction":
        auction, money = position.auctions[0], position.players[civ].money
        if money < auction.min_bid or rng.random() < 0.3:
            return []
        amount = rng.randint(auction.min_bid, min(money, auction.min_bid + 4))
        drawer = [c for c, s in position.cities.items() if s.owner == auction.drawer and s.status is Status.PROVINCE]
        where = f" for {board.cities[rng.choice(drawer)].name}" if auction.lot == "" and drawer else ""
        return [f"bid {amount}{where}"]
    if civ != position.step:
        return []
    player = position.players[civ]
    capital = position.capital(civ)
    provinces = [c for c, s in position.cities.items() if s.owner == civ and s.status is Status.PROVINCE]
    money = player.money
    lines = []
    if capital is None and provinces and money >= board.prices["empire"]:
        city = rng.choice(provinces)
        lines.append(f"found empire at {board.cities[city].name}")
        money -= board.prices["empire"]
        capital = city
    else:
        money += position.due
    lines += _plan_ships(rng, board, position, civ)
    if not position.ships_of(civ) and money >= board.prices["ship"] + 1 and (capital or money < 8):
        own = [
            c for c, s in position.cities.items() if s.owner == civ and s.status in (Status.PROVINCE, Status.CAPITAL)
        ]
        if own:
            lines.append(f"buy ship at {board.cities[rng.choice(own)].name}")
    if capital is not None:
        lines += _plan_empire(rng, board, position, civ, money)
    return lines


def _plan_ships(rng: random.Random, board: Any, position: Any, civ: str) -> list[str]:
    """Each ship: load a wanted good at his own city, sail a step toward a city that wants its
    cargo, sell there."""
    from adjudicator.rulesets.mediterraneum.geography import ship_neighbours, space_name
    from adjudicator.rulesets.mediterraneum.model import HARBOUR, city_of_space

    wanted = {g for s in position.cities.values() for g in s.want}
    lines = []
    for ship in position.ships_of(civ):
        city = city_of_space(ship.at)
        cargo = ship.cargo
        if not cargo and city is not None and position.cities[city].owner == civ:
            goods = [g for g in board.produces(city) if g in wanted] or list(board.produces(city))
            if goods:
                cargo = rng.choice(goods)
                lines.append(f"ship {ship.number} load {board.goods[cargo].name}")
        if cargo.startswith("art:"):
            continue
        if cargo:
            targets = {
                f"{HARBOUR}:{c}" for c, s in position.cities.items() if cargo in s.want and s.owner in (None, civ)
            }
        else:
            targets = {f"{HARBOUR}:{c}" for c, s in position.cities.items() if s.owner == civ}
        if ship.at in targets:
            if cargo:
                lines.append(f"ship {ship.number} sell")
            continue
        step = _first_step(board, ship.at, targets, ship_neighbours)
        if step is not None:
            lines.append(f"ship {ship.number} to {space_name(board, step)}")
            if cargo and step in targets:
                lines.append(f"ship {ship.number} sell")
    return lines


def _first_step(board: Any, start: str, targets: set[str], neighbours: Any) -> str | None:
    """The first space on a shortest way by sea from `start` to one of `targets`."""
    first: dict[str, str] = {}
    frontier = []
    for step in neighbours(board, start):
        first.setdefault(step, step)
        frontier.append(step)
    while frontier:
        later = []
        for where in frontier:
            if where in targets:
                return first[where]
            for step in neighbours(board, where):
                if step not in first and step != start:
                    first[step] = first[where]
                    later.append(step)
        frontier = later
    return None


def _plan_empire(rng: random.Random, board: Any, position: Any, civ: str, money: int) -> list[str]:
    """An empire's purchases and its armies' marches on the cities next door."""
    capital = position.capital(civ)
    lines = []
    supply = [b for b, n in position.decks.buildings.items() if n and board.buildings[b].cost <= money]
    if supply and rng.random() < 0.6:
        building = board.buildings[rng.choice(supply)]
        lines.append(f"build {building.name}")
        money -= building.cost
    if money >= board.prices["warehouse"] and rng.random() < 0.2:
        lines.append("build warehouse")
        money -= board.prices["warehouse"]
    if money >= board.prices["army"] and len(position.armies_of(civ)) < 3 and rng.random() < 0.6:
        lines.append("raise army")
    if not position.players[civ].patronised and rng.random() < 0.3:
        lines.append("patron")
    for army in position.armies_of(civ):
        if army.at not in board.lands:
            continue
        enemies = [x for x in board.lands[army.at].land if any(a.owner != civ for a in position.armies_at(x))]
        if enemies and rng.random() < 0.6:  # a field battle (M10)
            lines.append(f"army {army.number} attack {board.lands[rng.choice(enemies)].name}")
            continue
        city = board.city_of(army.at)
        if city is not None and position.cities[city].owner != civ and army.since < position.count:
            lines.append(f"army {army.number} attack {board.cities[city].name}")
            continue
        goals = [
            land
            for land in board.lands[army.at].land
            if board.city_of(land) and position.cities[board.city_of(land)].owner != civ
        ]
        if goals:
            lines.append(f"army {army.number} to {board.lands[rng.choice(goals)].name}")
    if capital is not None and rng.random() < 0.1:
        lines.append("dismiss artist")
    return lines


def mediterraneum_huge_lines(rng: random.Random, game: Any, civ: str) -> list[str]:
    """Mare Mediterraneum orders with absurd numbers (`pay MMMM to Blue`, `bid 99999`)."""
    from adjudicator.rulesets.mediterraneum.orders import roman

    board, position = game.board, game.position
    n = rng.choice(HUGE)
    others = [c for c in position.order if c != civ] or [civ]
    city = board.cities[rng.choice(sorted(board.cities))].name
    lines = [
        f"pay {rng.choice(['MMMM', 'MMMMMMMMMM', str(n)])} to {rng.choice(others)}",
        f"bid {rng.choice([99999, n])}",
        f"ship {n} to {city}",
        f"army {n} attack {city}",
        f"ship 1 sell at least {rng.choice(['MMMM', str(n)])}",
        f"buy wine at {city} for up to {n}",
    ]
    if n < 4000:
        lines.append(f"pay {roman(n)} to {rng.choice(others)}")
    return rng.sample(lines, rng.randint(2, len(lines)))
