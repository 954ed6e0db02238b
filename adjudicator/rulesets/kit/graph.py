"""The checks every board of provinces and seas must pass, whatever its game: neighbours that
exist and name each other back, islands with a coast, and every place reachable from any other.
A ruleset's board parser hands its places over as plain adjacency and adds its own checks."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from adjudicator.core.fields import Fields
from adjudicator.rulesets.kit.lookup import Named


class _Province(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def land(self) -> Sequence[str]: ...
    @property
    def seas(self) -> Sequence[str]: ...
    @property
    def island(self) -> bool: ...


class _Sea(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def seas(self) -> Sequence[str]: ...


@dataclass(frozen=True, slots=True)
class PlaceGraph:
    land: Mapping[str, Sequence[str]]  # province -> its land neighbours
    coasts: Mapping[str, Sequence[str]]  # province -> the seas it touches
    seas: Mapping[str, Sequence[str]]  # sea -> its neighbouring seas
    islands: frozenset[str] = frozenset()

    @classmethod
    def of(cls, provinces: Iterable[_Province], seas: Iterable[_Sea]) -> PlaceGraph:
        provinces = list(provinces)
        return cls(
            land={p.id: p.land for p in provinces},
            coasts={p.id: p.seas for p in provinces},
            seas={s.id: s.seas for s in seas},
            islands=frozenset(p.id for p in provinces if p.island),
        )

    def sea_coasts(self, sea: str) -> list[str]:
        return [p for p, seas in self.coasts.items() if sea in seas]

    def neighbours(self, place: str) -> Iterable[str]:
        if place in self.land:
            yield from self.land[place]
            yield from self.coasts[place]
        else:
            yield from self.seas[place]
            yield from self.sea_coasts(place)


SeaT = TypeVar("SeaT", bound=str)


def chain_seas(
    first: Iterable[SeaT], usable: Collection[SeaT], next_seas: Callable[[SeaT], Iterable[SeaT]]
) -> set[SeaT]:
    """The seas a chain of usable seas (those holding a player's triremes: R7.3, E7.3) reaches
    from the `first` seas, each of them usable: where a sea move along the chain may land."""
    seen = {sea for sea in first if sea in usable}
    queue = deque(seen)
    while queue:
        for nxt in next_seas(queue.popleft()):
            if nxt in usable and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def graph_problems(graph: PlaceGraph) -> list[str]:
    """Every way the places break the board's geometry; empty when it is sound."""
    shared = set(graph.land) & set(graph.seas)
    problems = [f"'{i}' is both a province id and a sea id" for i in sorted(shared)]
    problems += _adjacency_problems(graph)
    return problems + _reachability_problems(graph)


def _adjacency_problems(graph: PlaceGraph) -> list[str]:
    problems = []
    for province, neighbours in graph.land.items():
        for other in neighbours:
            if other not in graph.land:
                problems.append(f"province {province}: land neighbour '{other}' is not a province")
            elif province not in graph.land[other]:
                problems.append(
                    f"land adjacency is not symmetric: {province} lists {other}, {other} does not list {province}"
                )
            if other == province:
                problems.append(f"province {province} lists itself as a neighbour")
        for sea in graph.coasts[province]:
            if sea not in graph.seas:
                problems.append(f"province {province}: coast '{sea}' is not a sea")
        if province in graph.islands and neighbours:
            problems.append(f"province {province} is an island but has land neighbours")
        if province in graph.islands and not graph.coasts[province]:
            problems.append(f"province {province} is an island with no sea")
    for sea, neighbours in graph.seas.items():
        for other in neighbours:
            if other not in graph.seas:
                problems.append(f"sea {sea}: neighbour '{other}' is not a sea")
            elif sea not in graph.seas[other]:
                problems.append(f"sea adjacency is not symmetric: {sea} lists {other}, {other} does not list {sea}")
        if not graph.sea_coasts(sea):
            problems.append(f"sea {sea} touches no province")
    return problems


def _reachability_problems(graph: PlaceGraph) -> list[str]:
    places = [*graph.land, *graph.seas]
    if not places:
        return ["the board has no provinces"]
    seen = {places[0]}
    queue = deque([places[0]])
    while queue:
        for nxt in graph.neighbours(queue.popleft()):
            if (nxt in graph.land or nxt in graph.seas) and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return [f"{p} cannot be reached from {places[0]}" for p in places if p not in seen]


def geo_position(f: Fields) -> tuple[float, float] | None:
    """A place's `position = [longitude, latitude]` (WGS84 degrees), where the real map puts it."""
    if "position" not in f:
        return None
    value = f.data["position"]
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise f.error("position", f"expected [longitude, latitude] with two numbers, found {value!r}")
    longitude, latitude = float(value[0]), float(value[1])
    if not (-180 <= longitude <= 180 and -90 <= latitude <= 90):
        raise f.error("position", f"expected longitude -180..180 and latitude -90..90, found {value!r}")
    return (longitude, latitude)


@dataclass(frozen=True, slots=True)
class Sea(Named[str]):
    """A sea as the Empires and Mare Mediterraneum boards describe it: its neighbouring seas and
    where the real map puts its label."""

    seas: tuple[str, ...]
    source: str
    position: tuple[float, float] | None = None
    position_source: str = ""


def parse_sea(f: Fields) -> Sea:
    """A `[[sea]]` of a board file, every key checked."""
    f.only({"id", "name", "aliases", "position", "position_source", "seas", "source"})
    return Sea(
        id=f.text("id"),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        seas=tuple(f.texts("seas", [])),
        source=f.text("source", ""),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )
