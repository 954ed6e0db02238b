"""A phase's dice as history/ keeps them: each roll with its purpose, which may be a message
to show in the reader's language (a table of msg and args), or plain text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.dice import DiceRecord, DiceSource, Roll
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import Msg, decode, encode


def dice_record_to_data(record: DiceRecord) -> dict[str, Any]:
    return {
        "phase_number": record.phase_number,
        "source": str(record.source),
        "seed": record.seed,
        "rolls": [{"number": r.number, "value": r.value, "purpose": encode(r.purpose)} for r in record.rolls],
    }


def dice_record_from_data(data: Mapping[str, Any]) -> DiceRecord:
    dice = Fields(data).table("dice")
    source = dice.text("source", "chain")
    if source not in DiceSource.__members__.values():
        raise dice.error("source", "use chain or external")
    rolls = tuple(
        Roll(f.integer("number", minimum=0), f.integer("value", minimum=1), _purpose(f))
        for f in dice.tables("rolls", [])
    )
    return DiceRecord(dice.integer("phase_number", minimum=0), DiceSource(source), dice.text("seed", ""), rolls)


def _purpose(roll: Fields) -> str:
    """What a roll was for: a message kept as a table (translated where it is shown), or the
    English text that games begun before dice purposes were messages stored."""
    if isinstance(roll.data.get("purpose"), Mapping):
        said = decode(roll.data["purpose"])
        if not isinstance(said, Msg):
            raise roll.error("purpose", "expected text or a message table (msg, args)")
        return said
    text: str = roll.text("purpose", "")
    return text
