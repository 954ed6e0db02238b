"""Empires order forms: the orders a player could give next, one complete line each. Proposed
broadly here; the generic form code keeps only those the validator accepts."""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.combat import Side, battle_odds
from adjudicator.rulesets.empires.geography import chain_coasts
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.presentation import listed
from adjudicator.rulesets.empires.purchase import piece_cost
from adjudicator.rulesets.empires.rehearsal import war_first_note
from adjudicator.rulesets.empires.terms import place_names
from adjudicator.rulesets.empires.trade import free_tokens
from adjudicator.rulesets.kit.odds import with_odds
from adjudicator.rulesets.kit.payment import TAX

Candidate = tuple[str, str]  # (order text, a note shown after it as a comment)


def form_candidates(board: Board, position: Position, empire: str) -> list[Candidate]:
    if position.winner is not None or empire not in position.players:
        return []
    if position.phase is Phase.TRADE:
        return _trade(board, position, empire)
    if position.phase is Phase.PURCHASE:
        return _purchase(board, position, empire)
    if position.phase is Phase.MILITARY:
        return _military(board, position, empire)
    return []


def _trade(board: Board, position: Position, empire: str) -> list[Candidate]:
    player = position.players[empire]
    lines: list[Candidate] = []
    if position.titles.get(Title.COMMERCE) == empire:
        sides = sorted({side for i in free_tokens(board, position) for side in board.trade_tokens[i]})
        lines += [(f"trade {n}", t("the side you choose: you are Master of Commerce (E5.1)")) for n in sides]
    held = sorted({*player.resources, *player.legendary})
    if held:
        lines.append((f"offer {', '.join(held)}", t("ranked: the first N you hold are offered (E5.3)")))
    lines += [("take good", t("a good you lack first (ED18)")), (f"take {TAX}", ""), ("take any", "")]
    if position.titles.get(Title.COMMERCE) == empire and held:
        lines.append((f"give {', '.join(held)}", t("ranked: the token that evens out the trade (E5.5)")))
    return lines


def _purchase(board: Board, position: Position, empire: str) -> list[Candidate]:
    names = place_names(board)

    def cost(piece: str) -> int:
        return piece_cost(board, position, empire, piece)[0]  # as the engine charges it (E11.1)

    lines: list[Candidate] = []
    if position.titles.get(Title.POLITICAL) == empire:
        lines.append(
            (f"sequence {', '.join(position.playing)}", t("the purchase order: you are Political Leader (E3.3)"))
        )
    mine = sorted(pid for pid, p in position.provinces.items() if p.influence == empire)
    neighbours = sorted(
        {q for pid in mine for q in (*board.provinces[pid].land, *chain_coasts(board, position, empire, pid))}
    )
    for pid in neighbours:
        if pid not in mine and position.provinces[pid].influence is None:
            lines.append((f"build influence in {names[pid]}", t("costs %(cost)s (E6.4)", cost=cost("influence"))))
    for pid in mine:
        site, built = board.provinces[pid], position.provinces[pid]
        name = names[pid]
        pieces = ["legion"] + (["fortress"] if not built.fortress else [])
        pieces += [b for b in ("market", "temple") if getattr(site, b) and not getattr(built, b)]
        lines += [(f"build {piece} in {name}", t("costs %(cost)s (E6.2)", cost=cost(piece))) for piece in pieces]
        free = list(site.caravans)
        for good in built.caravans:
            free.remove(good)
        lines += [
            (f"build caravan on {good} in {name}", t("costs %(cost)s", cost=cost("caravan")))
            for good in sorted(set(free))
        ]
        if site.city is not None and not built.city:
            kind = {"legendary": "legendary city"}.get(str(site.city), str(site.city))
            lines.append((f"build {kind} in {name}", t("costs %(cost)s (E6.6)", cost=cost(str(site.city)))))
        for sea in site.seas:
            lines.append((f"build trireme in {names[sea]}", t("costs %(cost)s (E6.5)", cost=cost("trireme"))))
    lines += [
        (f"buy {tile}", t("costs %(cost)s this round (E6.7)", cost=board.tiles[tile].price(position.round)))
        for tile in position.track
    ]
    others = sorted({t for e, p in position.players.items() if e != empire for t in p.tiles})
    lines += [(f"copy {tile}", t("Castor and Pollux: its effects until your next purchase (E11.1)")) for tile in others]
    pyramids = next((t for t in board.tiles.values() if t.kind == "pyramids"), None)
    if pyramids is not None:
        lines.append(
            (f"buy {pyramids.name}", t("costs %(cost)s: you win (E10.1)", cost=pyramids.price(position.round)))
        )
    return list(dict.fromkeys(lines))


def _military(board: Board, position: Position, empire: str) -> list[Candidate]:
    names = place_names(board)
    lines: list[Candidate] = []
    if position.titles.get(Title.MILITARY) == empire:
        lines.append(
            (f"sequence {', '.join(position.playing)}", t("the military order: you are Military Leader (E3.3)"))
        )
    for sid, sea in sorted(position.seas.items()):
        if count := sea.triremes.get(empire, 0):
            unit = "trireme" if count == 1 else "triremes"
            lines += [(f"sail {count} {unit} from {names[sid]} to {names[s]}", "") for s in board.seas[sid].seas]
            lines += [
                (
                    f"attack {enemy} in {names[sid]}",
                    with_odds(
                        t("a naval battle (E7.2)"),
                        battle_odds(board, position, Side(empire, count), Side(enemy, sea.triremes[enemy]), sid),
                    ),
                )
                for enemy in sorted(e for e, n in sea.triremes.items() if n and e != empire)
            ]
    for pid, province in sorted(position.provinces.items()):
        if count := province.legions.get(empire, 0):
            unit = "legion" if count == 1 else "legions"
            war = war_first_note(names[pid]) if province.at_war and position.step != empire else ""
            for other in board.provinces[pid].land:
                there = position.provinces[other]
                enemies = there.units() - {empire}
                battle: str = ""
                if enemies:
                    battle = described = t("a battle against %(enemies)s (E8)", enemies=", ".join(sorted(enemies)))
                if len(enemies) == 1:  # against one empire, its odds; against several, the order decides
                    (enemy,) = enemies
                    mine = Side(empire, count + there.legions.get(empire, 0), there.fortress == empire)
                    theirs = Side(enemy, there.legions.get(enemy, 0), there.fortress == enemy)
                    battle = with_odds(described, battle_odds(board, position, mine, theirs, other))
                note = listed([n for n in (battle, war) if n], "; ")
                lines.append((f"move {count} {unit} from {names[pid]} to {names[other]}", note))
    for holder_title in Title:
        if position.titles.get(holder_title) == empire:
            lines.append((f"title {holder_title} to {empire}", t("if tied at Claims, keep it (E9.2)")))
    return lines
