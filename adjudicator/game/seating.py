"""Seats changing hands during a game (issue 32): the count of missed phases after each
adjudication, a seat opened (by the count, by the moderator, or because its player resigned),
and a substitute seated.

game/seats.py keeps the ledger and its rules; each change here says what everyone is to be
told (a `SeatNotice`), and the caller queues the mails (delivery/seat_messages.py). Every change
to game.toml touches only the seat's [[player]] table, so the moderator's other tables (mail
settings among them) stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adjudicator.core.errors import UsageError
from adjudicator.core.fields import Fields
from adjudicator.game import seats
from adjudicator.game.game import Game
from adjudicator.game.players import Player, hash_secret, mail_address, new_secret, open_seat, parse_player
from adjudicator.game.settings import Settings
from adjudicator.game.storage import PRIVATE, read_toml, write_toml_atomic

Tell = Callable[[Sequence[seats.SeatNotice]], None]  # queues the notices' mails


def count_phase(game: Game, phase_number: int, due: Sequence[str], missed: Sequence[str], tell: Tell) -> list[str]:
    """After phase `phase_number` is resolved, under the game's lock: count whose orders did not
    come and open the seats whose holders missed too many. The notices are told first, so that a
    crash loses none (a redo counts the phase again and tells the same). Returns what was done,
    for the moderator's screen."""
    ledger = seats.with_holders(seats.load(game.directory), game.settings.players, phase_number)
    ledger, notices = seats.count_phase(ledger, game.settings.seats, phase_number, due, missed)
    tell(notices)
    for notice in notices:
        if notice.kind == "open":
            held = game.settings.player(notice.civ)
            ledger = seats.with_seat_kept(ledger, notice.civ, held.to_data() if held is not None else {})
            _set_player(game, open_seat(notice.civ))
            _move_secret(game, notice.civ, "players", "left")  # a rollback past this phase gives it back
    seats.save(game.directory, ledger)
    return [notice.summary for notice in notices]


def vacate_seat(game: Game, civ: str, tell: Tell) -> None:
    """Opens a held seat: its player has resigned, or the moderator opened it. Everyone is told
    first; his secret stops working at once."""
    held = game.settings.player(civ)
    if held is None or held.open:
        raise UsageError(
            f"{civ}'s seat is open already; give it to a player with 'adjudicator seat GAME {civ} --player EMAIL'"
        )
    ledger = seats.with_holders(seats.load(game.directory), game.settings.players, game.phase_number)
    ledger = seats.opened(ledger, civ, game.phase_number, held.secret_hash)
    tenure = ledger.former(civ)
    assert tenure is not None  # `opened` has just ended his tenure
    tell([seats.SeatNotice("left", civ, held.email, tenure.in_row, tenure.missed)])
    _set_player(game, open_seat(civ))
    _move_secret(game, civ, "players", None)
    seats.save(game.directory, ledger)


def seat(game: Game, civ: str, email: str, name: str) -> str:
    """Gives an open seat to a new player: a new secret, and his orders due from the phase now
    open. Returns his secret (for his welcome, and kept in secrets.toml)."""
    held = game.settings.player(civ)
    if held is None:
        raise UsageError(f"{civ} has no seat in this game")
    if not held.open:
        raise UsageError(
            f"{civ}'s seat is held by {held.email}; open it first with 'adjudicator seat GAME {civ} --open' "
            "(or the player mails 'resign')"
        )
    address = mail_address(email)
    if address is None:
        raise UsageError(f"'{email}' is not an address the judge can mail; write it as name@example.org, in ASCII")
    playing = next((p for p in game.settings.holders() if p.mails_from(address)), None)
    if playing is not None:
        raise UsageError(f"{address} already plays {playing.civ} in this game; one seat each")
    secret = new_secret()
    newcomer = Player(civ, address, hash_secret(secret), name)
    _set_player(game, newcomer)
    _keep_secret(game, civ, secret)
    ledger = seats.with_holders(seats.load(game.directory), game.settings.players, game.phase_number)
    seats.save(game.directory, ledger)
    return secret


def _set_player(game: Game, player: Player) -> None:
    """game.toml with the seat's [[player]] table replaced by `player`'s, checked before it is
    written; `game.settings` follows."""
    data = read_toml(game.directory.game_file)
    entries = data.get("player", [])
    for index, entry in enumerate(entries):
        if entry.get("civ") == player.civ:
            entries[index] = player.to_data()
    settings = Settings.from_data(data).with_players_of(game.ruleset, game.board, game.position)
    write_toml_atomic(game.directory.game_file, data, mode=PRIVATE)
    game.settings = settings


def _keep_secret(game: Game, civ: str, secret: str) -> None:
    data = read_toml(game.directory.secrets_file)
    data.setdefault("players", {})[civ] = secret
    write_toml_atomic(game.directory.secrets_file, data, mode=0o600)


def _move_secret(game: Game, civ: str, source: str, target: str | None) -> None:
    """secrets.toml with the seat's secret moved from table `source` to `target` ([players], the
    secrets that open something; [left], set aside for a rollback), or forgotten (None)."""
    data = read_toml(game.directory.secrets_file)
    secret = data.get(source, {}).pop(civ, None)
    if secret is not None and target is not None:
        data.setdefault(target, {})[civ] = secret
    write_toml_atomic(game.directory.secrets_file, data, mode=0o600)


def after_rollback(game: Game, to: int, phases: Sequence[tuple[int, Sequence[str], Sequence[str]]]) -> None:
    """The seats as they were at phase `to`: a seat an adjudication from `to` on opened by the
    count is its player's again (unless the moderator has seated another since), and every
    count is made again from `phases`, those left in history."""
    ledger = seats.load(game.directory)
    if not ledger.tenures:
        return
    for civ in game.settings.open_seats():
        ledger, tenure = seats.given_back(ledger, civ, to)
        if tenure is not None:
            _set_player(game, parse_player(Fields(dict(tenure.kept), "player")))
            _move_secret(game, civ, "left", "players")
    seats.save(game.directory, seats.recounted(ledger, phases))
