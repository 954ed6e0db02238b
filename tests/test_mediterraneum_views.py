"""Mare Mediterraneum's views agree (issue 28): the order form, the receipt and the engine answer
each rules question alike, over positions a random game reaches.

- **Form = engine**: every line a player's order form offers, adjudicated alone from that position,
  is carried out (its own dice may still go against it: a sale finds no buyer, a river is not
  crossed, an attack fails; that is no refusal) and costs what the form's note says: `costs IV`,
  or nothing (a sale or a capital taken may bring money).
- **Receipt = engine**: a line the receipt marks OK without a note is never refused at
  adjudication, whatever the dice: adjudicated with the player's accepted lines, it is carried
  out under every dice stream tried (the chain's, and dice that go for or against him in every
  sale, crossing, storm and fight). A line whose fate depends on an earlier line's dice says so
  in its note; a line the engine would refuse whatever the dice is refused on the receipt.

The positions are the soak's mid-game ones (`Soak.mediterraneum_position`: empires with
buildings, art and armies, ships with cargo, maybe an auction), played on by the soak's random
players (`tests/random_play.py`), whose orders also make the submissions checked here, with now
and then a line naming a place anywhere on the board.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from adjudicator.core.dice import ChainDice, Dice
from adjudicator.core.events import Event
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.submissions import check_submission
from adjudicator.language.submission import OrderLine
from adjudicator.reports.order_form import order_form
from adjudicator.rulesets.mediterraneum.engine import resolve_phase
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.orders import Bid, Order, from_roman
from tests.random_play import mediterraneum_orders
from tests.soak import Params, Soak

SEEDS = (1, 2, 3, 4)
TURNS = 4  # positions a game is checked in: its imported one and the turns after it
COLOURS = ("Red", "Blue", "Green", "Yellow")
PRICE = re.compile(r"\bcosts ([IVXLCDM]+)\b")
DECISIONS = ("M4.5 sale", "M11.3 storm", "M8.3 river", "M8.3 mountain", "M8.4 attack", "M10.1 battle", "M9.5 sea fight",
             "M9.4 capture")  # fmt: skip


class Leaning:
    """The chain's dice, but every die that decides one of his lines (a sale, a crossing, a
    storm, a fight) falls for him (`lucky`) or against him; a defender's die the other way."""

    def __init__(self, base: ChainDice, lucky: bool) -> None:
        self.base, self.lucky = base, lucky

    @property
    def used(self) -> int:
        return self.base.used

    def roll(self, purpose: str) -> int:
        if not any(word in purpose for word in DECISIONS):
            return self.base.roll(purpose)
        for_him = self.lucky != ("defender" in purpose)
        return 6 if for_him else 1

    def sealed(self) -> Dice:
        return self.base.sealed()


def games(folder: Path) -> Iterator[tuple[int, Game]]:
    """Each seed's game from a soak position, at its first TURNS phases."""
    for seed in SEEDS:
        rng = random.Random(f"mm-views/{seed}")
        colours = tuple(rng.sample(COLOURS, rng.choice((3, 4))))
        params = Params(
            seed=seed, civs=colours, mode="batch", setup="position", roles_each="turn", finite_bank=True, turns=8,
            hostile_name=False, site=False, ruleset="mediterraneum",
        )  # fmt: skip
        soak_folder = folder / f"soak-{seed}"
        soak_folder.mkdir(parents=True)
        path = Soak(params, soak_folder).mediterraneum_position()
        specs = [parse_player_spec(f"{c}:{c.lower()}@example.org:{c.lower()}-secret") for c in colours]
        game, _ = Game.create(
            folder / f"g{seed}", specs, ruleset_name="mediterraneum", position_file=path, dice_root=rng.randbytes(32)
        )
        for number in range(TURNS):
            if game.phase_info.winner is not None:
                break
            yield seed, game
            orders = {civ: accepted(game, civ, mediterraneum_orders(rng, game, civ)) for civ in due(game)}
            position, _ = resolve_phase(game.board, game.position, orders, chain(game, f"{seed}/{number}"), Options())
            game = Game(game.directory, game.settings, game.board, position, game.phase_number + 1)


def due(game: Game) -> tuple[str, ...]:
    return tuple(game.ruleset.due(game.position, False))


def chain(game: Game, label: str) -> ChainDice:
    seed = hashlib.sha256(f"mm-views/{label}".encode()).digest()
    return ChainDice(game.settings.id, game.phase_number, seed, root=seed)


def checked(game: Game, civ: str, lines: Sequence[str]) -> list[OrderLine[Order]]:
    return list(check_submission(game, f"power {civ}\n" + "\n".join(lines) + "\n").lines)


def accepted(game: Game, civ: str, lines: Sequence[str]) -> list[Order]:
    return [line.order for line in checked(game, civ, lines) if line.ok and line.order is not None]


def refused(events: Sequence[Event], civ: str) -> dict[int, str]:
    """His lines the engine refused, by line number, with the reason (a refused bid is line 0)."""
    found: dict[int, str] = {}
    for event in events:
        if event.data.get("player") == civ and event.kind in ("order_failed", "bid_refused"):
            found.setdefault(int(str(event.data.get("line", 0))), f"{event.data['rule']}: {event.data['reason']}")
    return found


def spent(position: Position, after: Position, events: Sequence[Event], civ: str) -> int | None:
    """What his lines cost him: his money before, with the tax collected and the upkeep paid in
    his turn, less his money after; None when he went bankrupt (his purse is emptied, M6.6)."""
    if any(e.kind == "bankrupt" and e.data.get("player") == civ for e in events):
        return None
    collected = sum(int(str(e.data["amount"])) for e in events if e.kind == "tax_collected" and e.data["player"] == civ)
    upkeep = sum(int(str(e.data["amount"])) for e in events if e.kind == "upkeep" and e.data["player"] == civ)
    return position.players[civ].money + collected - upkeep - after.players[civ].money


def test_every_form_line_is_carried_out_alone_at_its_price(tmp_path: Path) -> None:
    problems: list[str] = []
    lines = 0
    for seed, game in games(tmp_path):
        position: Any = game.position
        for civ in due(game):
            for form_line in order_form(game, position, civ):
                (line,) = checked(game, civ, [form_line.order])
                assert line.ok and line.order is not None, (seed, civ, form_line, line.problem)
                lines += 1
                after, events = resolve_phase(
                    game.board, position, {civ: [line.order]}, chain(game, f"form/{seed}"), Options()
                )
                where = f"seed {seed}, {game.phase_info.label}, {civ}: {form_line.order}  # {form_line.note}"
                if refused(events, civ):
                    problems.append(f"{where}\n    refused: {refused(events, civ)}")
                    continue
                price = PRICE.search(form_line.note)
                wanted = (
                    line.order.amount if isinstance(line.order, Bid) else from_roman(price.group(1)) if price else 0
                )
                cost = spent(position, after, events, civ)
                if cost is not None and (cost != wanted if wanted else cost > 0):
                    problems.append(f"{where}\n    it cost {cost}, the note says {wanted}")
    assert lines > 100, f"only {lines} form lines were tried"
    assert not problems, "\n".join(problems[:20])


def test_a_line_the_receipt_accepts_without_a_note_is_carried_out_whatever_the_dice(tmp_path: Path) -> None:
    problems: list[str] = []
    lines = noted = 0
    for seed, game in games(tmp_path):
        rng = random.Random(f"mm-views/receipts/{seed}/{game.phase_number}")
        for civ in due(game):
            for _ in range(3):
                text = [misplaced(rng, game, line) for line in mediterraneum_orders(rng, game, civ)]
                results = checked(game, civ, text)
                ok = [line for line in results if line.ok and line.order is not None]
                lines += len(ok)
                noted += sum(1 for line in ok if line.note)
                orders = [line.order for line in ok if line.order is not None]
                for dice in streams(game, f"receipt/{seed}/{civ}/{len(text)}"):
                    _, events = resolve_phase(game.board, game.position, {civ: orders}, dice, Options())
                    refusals = refused(events, civ)
                    for line in ok:
                        reason = refusals.get(0 if isinstance(line.order, Bid) else line.number)
                        if reason is not None and not line.note:
                            problems.append(
                                f"seed {seed}, {game.phase_info.label}, {civ}, line {line.number} {line.text!r} "
                                f"of {text}\n    OK on the receipt; refused: {reason}"
                            )
    assert lines > 100, f"only {lines} accepted lines were tried"
    assert not problems, "\n".join(dict.fromkeys(problems[:20]))


def streams(game: Game, label: str) -> list[Dice]:
    """The chain's dice, and the same dice leaning for him and against him."""
    return [chain(game, label), Leaning(chain(game, label), True), Leaning(chain(game, label), False)]


def misplaced(rng: random.Random, game: Game, line: str) -> str:
    """Now and then the line with a place it names swapped for another anywhere on the board,
    as a player misreads the map: a march to a land that does not border, a ship bought far away."""
    names = sorted(set(game.ruleset.place_names(game.board).values()), key=len, reverse=True)
    named = [name for name in names if name in line]
    if not named or rng.random() < 0.6:
        return line
    return line.replace(rng.choice(named), rng.choice(names), 1)


# ---- examples of each view, one position each ---------------------------------------------------


def offered(position: Position, colour: str) -> dict[str, str]:
    """The form's lines as the generic form code keeps them (each accepted alone), with notes."""
    from adjudicator.language.cleaning import Piece
    from adjudicator.rulesets.mediterraneum.candidates import form_candidates
    from adjudicator.rulesets.mediterraneum.validate import validate_orders
    from tests.mediterraneum_support import board, parser

    kept = {}
    for number, (text, note) in enumerate(form_candidates(board(), position, colour), start=1):
        line = OrderLine(number, text, order=parser().parse_line(Piece(number, text)))
        if validate_orders(board(), position, colour, [line])[0].ok:
            kept[text] = str(note)
    return kept


def test_the_form_offers_a_founding_only_to_a_purse_that_pays_it() -> None:
    """Issue 28: `found empire at TYRUS # costs X` was offered to a player with no money, the
    receipt said OK and the adjudication refused it. Founding is paid before the tax due is
    credited (T:45), so the due does not count."""
    from dataclasses import replace

    from tests.mediterraneum_support import opening

    position, _ = opening()
    colour = position.step
    poor = replace(position, due=5).with_player(colour, money=9)
    assert not [line for line in offered(poor, colour) if line.startswith("found empire")]
    assert [line for line in offered(poor, colour) if line.startswith("buy ship")], "II he can pay"
    rich = position.with_player(colour, money=10)
    assert all(note == "costs X (M5.1)" for line, note in offered(rich, colour).items() if line.startswith("found"))
    assert [line for line in offered(rich, colour) if line.startswith("found empire")]


def test_the_form_gives_the_price_of_a_horse_he_buys() -> None:
    from dataclasses import replace

    from adjudicator.rulesets.mediterraneum.model import Army, Status
    from tests.mediterraneum_support import board, opening

    position, _ = opening()
    colour = position.step
    city = next(c for c, s in position.cities.items() if s.owner is None and "horses" in board().produces(c))
    army = Army(colour, 1, board().cities[city].land, since=position.count - 1)
    position = replace(position, armies=(army,), due=0).with_player(colour, money=2)
    position = position.with_city(city, owner=colour, status=Status.PROVINCE)
    assert offered(position, colour)["army 1 mount"] == "a horse bought: cavalry, costs I (M9.6)"
    short = position.with_player(colour, money=1)  # the army's upkeep comes first (M3.9): nothing is left
    assert "army 1 mount" not in offered(short, colour)


def fragment(**data: Any) -> Position:
    """Red to move in turn count 10, as the rule cases' fragments (tests/rules/cases/m08-armies.toml)."""
    from tests.mediterraneum_support import board

    base = {
        "turn": 3, "phase": "turn", "step": "Red", "order": ["Red", "Blue", "Green"], "count": 10, "stone": 2,
        "stone_owner": "Green", "players": {"Red": {"money": 0}, "Blue": {}, "Green": {}},
        "decks": {"patronage": ["patron-maecenas"]}, "cities": {}, "ships": [], "armies": [],
    }  # fmt: skip
    from adjudicator.rulesets.mediterraneum.position import position_from_data

    return position_from_data(board(), {**base, **data})


def receipt(position: Position, text: str) -> list[OrderLine[Order]]:
    from adjudicator.language.submission import parse_submission
    from adjudicator.rulesets.mediterraneum.validate import validate_orders
    from tests.mediterraneum_support import board, parser

    lines = parse_submission(text, parser()).lines
    return validate_orders(board(), position, position.step, lines)


def test_a_purchase_a_sale_may_pay_for_is_accepted_with_a_note_naming_the_sale() -> None:
    position = fragment(
        players={"Red": {"money": 0}, "Blue": {}, "Green": {}},
        cities={
            "roma": {"owner": "Red", "status": "province"},
            "neapolis": {"want": ["papyrus"]},
            "syracusae": {"owner": "Red", "status": "taken"},
        },
        ships=[{"owner": "Red", "number": 1, "at": "harbour:neapolis", "cargo": "papyrus"}],
    )
    sale, purchase, late = receipt(position, "ship 1 sell\nbuy ship at Roma\nbuy ship at Syracusae")
    assert sale.ok and not sale.note, sale
    assert purchase.ok and purchase.note == "M3.8: whether it can be carried out depends on how line 1 turns out"
    # a sale changes no city's owner: a ship bought at a city his army has taken is refused all the same
    assert late.problem is not None and late.problem.message == "M4.2: SYRACUSAE is not his province or capital"


def test_a_cavalry_march_whose_second_land_is_closed_says_so_if_the_river_is_crossed() -> None:
    from tests.mediterraneum_support import board

    beyond = next(x for x in board().lands["etruria"].land if x != "latium" and not board().lands[x].mountain)
    position = fragment(
        armies=[
            {"owner": "Red", "number": 1, "at": "latium", "since": 5, "cavalry": True},
            {"owner": "Blue", "number": 1, "at": beyond, "since": 5},
        ],
    )
    assert "etruria" in board().lands["latium"].rivers, "a river between Latium and Etruria (T:87)"
    (march,) = receipt(position, f"army 1 to Etruria, {board().lands[beyond].name}")
    assert march.ok, march.problem
    assert march.note.startswith("M8.3: if its dice let it go on, its second space is refused: another player's army")


def test_a_cavalry_march_whose_second_land_is_closed_says_so_on_the_receipt() -> None:
    """No die decides its first land, so the engine takes it and refuses the second: the
    receipt's note says so (the line is not refused: its first land is carried out)."""
    from tests.mediterraneum_support import board

    lands = board().lands
    first = next(x for x in lands["latium"].land if x not in lands["latium"].rivers and not lands[x].mountain)
    beyond = next(x for x in lands[first].land if x != "latium")
    position = fragment(
        armies=[
            {"owner": "Red", "number": 1, "at": "latium", "since": 5, "cavalry": True},
            {"owner": "Blue", "number": 1, "at": beyond, "since": 5},
        ],
    )
    (march,) = receipt(position, f"army 1 to {lands[first].name}, {lands[beyond].name}")
    assert march.ok, march.problem
    assert march.note.startswith("M8.3: its second space is refused: another player's army holds"), march.note


def test_every_refusal_the_rehearsal_reads_is_a_message_the_engine_gives() -> None:
    """rehearsal.py knows what each refusal reads by its message: a message renamed in the engine
    and not there would make that refusal uncertain for good (never wrong, only later)."""
    import ast

    import adjudicator.rulesets.mediterraneum as package
    from adjudicator.rulesets.mediterraneum.parts import REASONS, SHORT

    given = set()
    for name in ("trading", "empire", "navy", "war", "prices"):
        tree = ast.parse((Path(package.__file__).parent / f"{name}.py").read_text(encoding="utf-8"))
        given |= {
            node.args[0].value
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "t" and node.args
            if isinstance(node.args[0], ast.Constant)
        }
    assert not (set(REASONS) | set(SHORT)) - given, sorted((set(REASONS) | set(SHORT)) - given)
