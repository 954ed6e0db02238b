"""Empires' options: none; the rules are played as printed."""

from __future__ import annotations

from adjudicator.rulesets.kit.options import no_options

OPTIONS = no_options("Empires")
