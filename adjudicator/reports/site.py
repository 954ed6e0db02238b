"""The campaign site: a static folder of HTML pages that tells the whole game so far.

One page per adjudicated phase (its map and public report, linked to its neighbours), an
index with the standings per turn, a map history to step through, and the dice proof with a
script a player runs himself. Plain files with relative links and nothing fetched from
elsewhere, so the folder works from file:// and from any web host. Rebuilds are incremental:
`.site.json` keeps a fingerprint of each page's inputs, and only pages whose inputs changed
are rendered again. Nothing here knows a game rule: the ruleset's `standings` and report
templates do.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator import __version__
from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.core.i18n import decode, encode, in_language
from adjudicator.core.resources import package_file, shipped_folder
from adjudicator.game.dice_records import dice_record_from_data
from adjudicator.game.game import Game
from adjudicator.game.history import is_adjudicated
from adjudicator.game.storage import read_toml, write_bytes_atomic
from adjudicator.reports.phase import PhaseReports, load_record, map_alt, record_label
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import Standing
from adjudicator.rulesets.kit.palette import player_marks

MANIFEST = ".site.json"
VERIFY_SCRIPT = "verify-dice.py"
_SUMMARY_KEYS = frozenset({"key", "adjudicated", "label", "events", "turn"})


@dataclass(frozen=True, slots=True)
class SiteBuild:
    """What a build did: the files it wrote (the others were up to date) and removed."""

    folder: Path
    phases: int
    written: tuple[str, ...]
    removed: tuple[str, ...]

    def summary(self) -> str:
        removed = f", removed {len(self.removed)} of phases rolled back" if self.removed else ""
        return (
            f"The campaign site in {self.folder} shows {self.phases} phase(s): "
            f"{len(self.written)} file(s) written{removed}; open {self.folder / 'index.html'}"
        )


def site_folder(game: Game) -> Path | None:
    """game.toml's `[game] site`, relative to the game directory; None when the game has none."""
    if not game.settings.site:
        return None
    folder = Path(game.settings.site).expanduser()
    return folder if folder.is_absolute() else game.directory.root / folder


def refresh_site(game: Game) -> str:
    """Bring the game's own site (`[game] site`) up to date after the game changed; "" when
    done or when it has none, else the problem. Never raises: a site must not hold up a game."""
    folder = site_folder(game)
    if folder is None:
        return ""
    try:
        builder = _Builder(game, folder)
        if builder.slugs:
            builder.build()
        else:  # rolled back to the first phase: no page stands any more
            builder.clear()
    except AdjudicatorError as error:
        return f"the campaign site in {folder} is not updated: {error}"
    except Exception as error:
        log = write_crash_log(game.directory.root, error)
        return f"the campaign site in {folder} is not updated (internal error: {one_line(error)}; details in {log})"
    return ""


@dataclass(frozen=True, slots=True)
class _Point:
    """One moment the standings chart shows: a turn's start, or the position now."""

    label: str
    standings: list[Standing]


def build_site(game: Game, folder: Path) -> SiteBuild:
    """Write (or bring up to date) the campaign site in `folder`."""
    builder = _Builder(game, folder)
    builder.build()
    return SiteBuild(folder, len(builder.slugs), tuple(builder.written), tuple(builder.removed))


class _Builder:
    def __init__(self, game: Game, folder: Path) -> None:
        self.game = game
        self.folder = folder
        self.old, self.old_history = _read_manifest(folder)
        self.new: dict[str, str] = {}
        self.written: list[str] = []
        self.removed: list[str] = []
        self.renderer = Renderer(game.ruleset.name, game.settings.lang)  # the game's language, as its reports
        self.base = _fingerprint(__version__, _templates_fingerprint(), game.directory.game_file.read_bytes())
        self.history = {path.stem: self._summary(path) for path in sorted(game.directory.history.glob("*.toml"))}
        self.slugs = [stem for stem, summary in self.history.items() if summary["adjudicated"]]

    def build(self) -> None:
        if not self.slugs:
            raise UsageError(
                "no phase has been adjudicated yet, so the site would be empty; run 'adjudicator adjudicate GAME' first"
            )
        for index, slug in enumerate(self.slugs):
            self._phase(index, slug)
        self._overview()
        self._remove_stale()
        manifest = {
            "adjudicator": __version__,
            "game": self.game.settings.id,
            "files": self.new,
            "history": self.history,
        }
        write_bytes_atomic(self.folder / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode())

    def clear(self) -> None:
        """Remove every page of the last build."""
        self._remove_stale()
        (self.folder / MANIFEST).unlink(missing_ok=True)

    # ---- one page per phase --------------------------------------------------------------

    def _phase(self, index: int, slug: str) -> None:
        previous = self.slugs[index - 1] if index else None
        following = self.slugs[index + 1] if index + 1 < len(self.slugs) else None
        inputs = _fingerprint(self.history[slug]["key"], self._after(slug), previous, following)
        reports = _Lazy(lambda: PhaseReports(self.game, load_record(self.game, slug)))
        links = {
            "previous": self._link(previous),
            "next": self._link(following),
            "maps": f"../maps.html#{slug}",
        }
        self._put(f"{slug}/index.html", inputs, lambda: reports.value.site_page(links))
        self._put(f"{slug}/map.svg", inputs, lambda: str(reports.value.map_svg))
        picture = self.game.directory.page_file(slug, "map.png")  # published for BBCode (map_url)
        if picture.exists():  # known by its size and time, so that an unchanged one is not even read
            seen = picture.stat()
            self._put(f"{slug}/map.png", _fingerprint(f"{seen.st_size}/{seen.st_mtime_ns}"), picture.read_bytes)

    def _standings_after(self, slug: str, now: Sequence[Standing]) -> Sequence[Standing]:
        """The standings a phase's map shows: the next phase's opening ones, or now's for the last;
        each in the ruleset's order of measures, which the manifest (its keys sorted) does not keep."""
        following = self._following(slug)
        if following is None or "standings" not in following:
            return now
        order = list(now[0].counts) if now else []
        return [
            Standing(s.civ, {m: s.counts[m] for m in order if m in s.counts} | dict(s.counts))
            for s in _standings_of(following)
        ]

    def _following(self, slug: str) -> dict[str, Any] | None:
        """The summary of the history file after a phase's: the opening of the phase that came next."""
        following = f"{int(slug[:3]) + 1:03d}"
        return next((summary for stem, summary in self.history.items() if stem[:3] == following), None)

    def _link(self, slug: str | None) -> dict[str, str] | None:
        if slug is None:
            return None
        return {"href": f"../{slug}/index.html", "label": self._label(slug)}

    def _label(self, slug: str) -> str:
        return str(self.history[slug]["label"])

    def _after(self, slug: str) -> str | bytes:
        """What a phase's page shows of the position after it: the next phase's opening, or for
        the last phase the current state and its deadline."""
        following = self._following(slug)
        if following is not None:
            return str(following["key"])
        return self.game.directory.state_file.read_bytes() + str(self.game.deadline()).encode()

    # ---- the overview pages --------------------------------------------------------------

    def _overview(self) -> None:
        game = self.game
        points = self._points()
        lang = game.settings.lang
        phases = [
            {
                "slug": slug,
                "label": self._label(slug),
                "map_alt": map_alt(self._standings_after(slug, points[-1].standings), self._label(slug)).render(lang),
                "number": int(slug[:3]),
                "events": self.history[slug]["events"],
                "rolls": len(self.history[slug]["dice"]["rolls"]),
            }
            for slug in self.slugs
        ]
        latest = points[-1].standings
        colours = game.ruleset.colours(game.board, game.settings.palette)
        measures = list(latest[0].counts) if latest else []
        names = {p.civ: p.name for p in game.settings.players}
        info = game.phase_info
        deadline = game.deadline()
        dice = self._dice_data()
        context = {
            "game": {"id": game.settings.id, "title": game.ruleset.title, "rules_url": game.settings.rules_url},
            "phases": phases,
            "now": {
                "label": info.label,
                "step": info.step,
                "winner": info.winner,
                "due": list(game.due()),
                "deadline": game.settings.local(deadline) if deadline else "",
            },
            "players": [{"civ": s.civ, "name": names.get(s.civ, ""), "colour": colours[s.civ]} for s in latest],
            "measures": measures,
            "standings": latest,
            "colours": colours,
            "charts": [_chart(measure, points, colours) for measure in measures],
            "commitment": game.settings.commitment,
            "dice": dice,
            "version": __version__,
        }
        for name in ("index.html", "maps.html", "dice.html"):
            self._put_text(name, self.renderer.render(f"site/{name}.j2", **context))
        self._put_text("dice.json", json.dumps(dice, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
        script = package_file("adjudicator.core", "dice_proof.py").read_bytes()
        self._put(VERIFY_SCRIPT, _fingerprint(script), lambda: script)

    def _phase_label(self, data: dict[str, Any]) -> str:
        """A phase's label in the game's language (history keeps it in English: R3 katonai, not
        R3 military, on a Hungarian site); a file without a position keeps what it says."""
        position = data.get("position")
        if isinstance(position, dict) and "turn" in position and "phase" in position:
            return record_label(self.game, position).render(self.game.settings.lang)
        return str(data.get("label", "the setup"))

    def _summary(self, path: Path) -> dict[str, Any]:
        """What the overview needs of one history file, kept in the manifest: a rebuild reads
        only the files that changed since (parsing every file was 90 % of a rebuild)."""
        key = _fingerprint(self.base, path.read_bytes())
        earlier = self.old_history.get(path.stem)
        if isinstance(earlier, dict) and earlier.get("key") == key and earlier.keys() >= _SUMMARY_KEYS:
            return earlier
        data = read_toml(path)
        game = self.game
        summary: dict[str, Any] = {
            "key": key,
            "adjudicated": is_adjudicated(path.stem, data),
            "label": self._phase_label(data),
            "events": len(data.get("events", [])),
            "turn": data.get("position", {}).get("turn", 0),
        }
        if "dice" in data:
            record = dice_record_from_data(data)
            summary["dice"] = {
                "phase_number": record.phase_number,
                "source": str(record.source),
                "seed": record.seed,
                "rolls": [{"number": r.number, "value": r.value, "purpose": encode(r.purpose)} for r in record.rolls],
            }
        if summary["adjudicated"]:  # the standings as the phase opened
            position = game.ruleset.position_from_data(game.board, data["position"])
            summary["standings"] = [_standing_to_data(s) for s in game.ruleset.standings(game.board, position)]
        return summary

    def _points(self) -> list[_Point]:
        """The standings at the start of each turn (its first phase opening, income paid), and
        now, if the game has moved on since its turn began."""
        game = self.game
        points: list[_Point] = []
        seen: set[int] = set()
        for slug in self.slugs:
            summary = self.history[slug]
            if summary["turn"] not in seen:
                seen.add(summary["turn"])
                label = f"{game.ruleset.turn_prefix}{summary['turn']}"
                points.append(_Point(label, _standings_of(summary)))
        info = game.phase_info
        label = "end" if info.winner else "now" if info.turn in seen else f"{info.prefix}{info.turn}"
        points.append(_Point(label, game.ruleset.standings(game.board, game.position)))
        return points

    def _dice_data(self) -> dict[str, Any]:
        """Every revealed seed and roll in history, the setup's included (dice.json's shape is
        what verify-dice.py reads); the phase now open has rolled nothing yet. What each roll
        was for is written in the site's language."""
        lang = self.renderer.lang
        phases = [
            {
                **summary["dice"],
                "rolls": [
                    {**roll, "purpose": in_language(decode(roll["purpose"]), lang)} for roll in summary["dice"]["rolls"]
                ],
                "slug": stem if summary["adjudicated"] else "",
                "label": summary["label"],
            }
            for stem, summary in self.history.items()
            if "dice" in summary
        ]
        return {"game": self.game.settings.id, "commitment": self.game.settings.commitment, "phases": phases}

    # ---- files ----------------------------------------------------------------------------

    def _put(self, name: str, fingerprint: str, make: Callable[[], str | bytes]) -> None:
        """Write `name` unless the last build wrote it from the same inputs and it is still there."""
        self.new[name] = fingerprint
        path = self.folder / name
        if self.old.get(name) == fingerprint and path.exists():
            return
        data = make()
        write_bytes_atomic(path, data.encode() if isinstance(data, str) else data)
        self.written.append(name)

    def _put_text(self, name: str, text: str) -> None:
        data = text.encode()
        self._put(name, _fingerprint(data), lambda: data)

    def _remove_stale(self) -> None:
        """Files an earlier build wrote that this one did not (phases rolled back)."""
        for name in sorted(set(self.old) - set(self.new)):
            path = self.folder / name
            path.unlink(missing_ok=True)
            self.removed.append(name)
            if path.parent != self.folder and not any(path.parent.iterdir()):
                path.parent.rmdir()


class _Lazy:
    """A value made the first time it is wanted: a phase whose pages are up to date is not
    even loaded."""

    def __init__(self, make: Callable[[], PhaseReports]) -> None:
        self._make = make

    @functools.cached_property
    def value(self) -> PhaseReports:
        return self._make()


def _read_manifest(folder: Path) -> tuple[dict[str, str], dict[str, Any]]:
    """The last build's fingerprints of its files, and its summaries of history; refuses a folder
    that holds other things, so that a mistyped path never scatters pages among someone's files."""
    path = folder / MANIFEST
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            files, history = data["files"], data.get("history", {})
            if isinstance(files, dict) and isinstance(history, dict):
                return {str(k): str(v) for k, v in files.items()}, history
        except (ValueError, KeyError, TypeError):
            pass
        return {}, {}  # a damaged manifest only costs a full rebuild
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} is not empty and holds no campaign site; give an empty or new folder for the site")
    return {}, {}


def _standing_to_data(standing: Standing) -> list[Any]:
    return [standing.civ, dict(standing.counts)]


def _standings_of(summary: Mapping[str, Any]) -> list[Standing]:
    """A history summary's standings: rows of [civ, counts] (a site built before the palettes kept a
    colour between them)."""
    return [Standing(row[0], row[-1]) for row in summary["standings"]]


def _fingerprint(*parts: bytes | str | None) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = b"\x00none" if part is None else part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


@functools.cache
def _templates_fingerprint() -> str:
    """Every template's text: a changed template (a new release) renders every page again."""
    root = shipped_folder("templates")
    return _fingerprint(*(p.read_bytes() for p in sorted(root.rglob("*.j2"))))


def _spread(lines: list[dict[str, Any]]) -> None:
    """The end marks moved apart, top to bottom, so that none covers another."""
    ordered = sorted(lines, key=lambda line: line["label_y"])
    for above, below in itertools.pairwise(ordered):
        below["label_y"] = round(max(below["label_y"], above["label_y"] + _LABEL_GAP), 1)


def _labelled(index: int, count: int, every: int) -> bool:
    """Every `every`-th tick is labelled, and the last, without crowding the one before it."""
    last = count - 1
    return index == last or (index % every == 0 and last - index >= every / 2)


# ---- the standings chart ------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 320, 170
_LEFT, _RIGHT, _TOP, _BOTTOM = 34, 26, 14, 30
# Each player's points have a shape of their own, and his line ends in his mark: lines of equal
# counts lie on one another, and colour alone does not tell every reader whose a line is
SHAPES = ("circle", "square", "triangle", "diamond", "cross", "star")
_LABEL_GAP = 9  # the least room between two end marks, so that equal lines keep theirs apart


def _chart(measure: str, points: Sequence[_Point], colours: Mapping[str, str]) -> dict[str, Any]:
    """One measure over the points as plain geometry for templates/site/chart.svg.j2."""
    values = [{s.civ: s.counts[measure] for s in point.standings} for point in points]
    top = max([1, *(v for row in values for v in row.values())])
    span_x = CHART_WIDTH - _LEFT - _RIGHT
    span_y = CHART_HEIGHT - _TOP - _BOTTOM

    def x(index: int) -> float:
        return round(_LEFT + (span_x * index / (len(points) - 1) if len(points) > 1 else span_x / 2), 1)

    def y(value: int) -> float:
        return round(_TOP + span_y * (1 - value / top), 1)

    every = -(-len(points) // 8)  # at most about eight labels under the axis
    civs: Mapping[str, str] = {s.civ: colours.get(s.civ, "#888888") for point in points for s in point.standings}
    marks = player_marks(civs)
    lines = []
    for order, (civ, colour) in enumerate(civs.items()):
        nudge = (order - (len(civs) - 1) / 2) * 1.6  # players level with each other stay visible
        dots = [(x(i), round(y(row[civ]) + nudge, 1), row[civ]) for i, row in enumerate(values) if civ in row]
        points_text = " ".join(f"{a},{b}" for a, b, _ in dots)
        end_x, end_y = (dots[-1][0] + 6, dots[-1][1]) if dots else (0.0, 0.0)
        lines.append(
            {"civ": civ, "colour": colour, "dots": dots, "points": points_text, "shape": SHAPES[order % len(SHAPES)]}
            | {"mark": marks[civ], "label_x": end_x, "label_y": end_y}
        )
    _spread([line for line in lines if line["dots"]])
    return {
        "measure": measure,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "lines": lines,
        "ticks": [
            {"label": p.label, "x": x(i), "shown": _labelled(i, len(points), every)} for i, p in enumerate(points)
        ],
        "levels": [{"value": v, "y": y(v)} for v in sorted({0, top // 2, top})],
        "left": _LEFT,
        "right": CHART_WIDTH - _RIGHT,
        "bottom": CHART_HEIGHT - _BOTTOM,
    }
