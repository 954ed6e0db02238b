"""The translation catalogs (issue 18): every message the code and the templates emit, gathered
with Babel, and each language's .po file brought up to date with it.

    python tools/catalogs.py            # add new messages to every catalog (translations kept)
    python tools/catalogs.py --check    # fail, listing them, while a message lacks a translation

Messages are found by their markers: `t("…")` and `tn("…", "…", n)` in the code
(adjudicator/i18n.py), `_("…")` and `{% trans %}…{% endtrans %}` in the templates; the grammar
files add their syntax-error labels and the placeholders, glosses and 'or' of their forms. A message
no longer used leaves the catalogs; a changed one comes back untranslated, so `--check` (and
tests/test_translations.py) ask for it again.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.core.i18n import DOMAIN, LANGUAGES, SOURCE  # noqa: E402
from adjudicator.language.written_forms import PartKind, form_parts, placeholders  # noqa: E402

LOCALE = ROOT / "adjudicator" / "locale"
KEYWORDS = {"t": None, "tn": (1, 2), "_": None, "gettext": None, "ngettext": (1, 2)}
METHODS = [("**.py", "python")]
TEMPLATE_METHODS = [("**.j2", "jinja2")]
TEMPLATE_OPTIONS = {"**.j2": {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}}


def _found() -> Iterator[tuple[str, tuple[str, ...] | str, str]]:
    """(file, message, comment) for every marked message of the code and the templates."""
    for folder, methods, options in (
        (ROOT / "adjudicator", METHODS, {}),
        (ROOT / "templates", TEMPLATE_METHODS, TEMPLATE_OPTIONS),
    ):
        for filename, lineno, message, comments, _context in extract_from_dir(
            folder, methods, options_map=options, keywords=KEYWORDS, comment_tags=("NOTE:",), strip_comment_tags=True
        ):
            yield f"{folder.name}/{filename}:{lineno}", message, " ".join(comments)


def _grammar_labels() -> Iterator[tuple[str, str, str]]:
    """The syntax-error labels of the grammars (grammar/*.errors.toml), shown to players as
    messages (adjudicator/orders.py translates them by their English text)."""
    for path in sorted((ROOT / "grammar").glob("*.errors.toml")):
        with path.open("rb") as handle:
            for number, error in enumerate(tomllib.load(handle)["error"], start=1):
                yield f"grammar/{path.name}:{number}", error["label"], "a syntax error's explanation"


def _terms() -> Iterator[tuple[str, str, str]]:
    """(ruleset, kind, name) for every word of a game that players read in their language
    (`Ruleset.terms` of each shipped board): its cards, goods and phases."""
    from adjudicator.game.game import default_board_path, load_board
    from adjudicator.rulesets import REGISTRY

    for name, ruleset in REGISTRY.items():
        board = load_board(ruleset, default_board_path(ruleset))
        for kind, words in ruleset.terms(board).items():
            for word in words:
                yield name, kind, str(word)


TERM_NOTES = {
    "card": "the name of a card or good; give the form shown after a count (plural forms), "
    "and make sure each form is also accepted in orders (tests/test_terms.py)",
    "choice": "what a 'take' line may name instead of a card: any commodity (or good), or any card at all; "
    "the word must be one that orders accept (tests/test_terms.py)",
    "building": "the name of a building a player builds in his capital (Mare Mediterraneum, M7.1); "
    "each form must also be accepted in orders (tests/test_terms.py)",
    "title": "a title of Mare Nostrum: Empires as a 'title' line names it (title commerce to Rome, E9.2); "
    "one word, accepted in orders (tests/test_terms.py)",
    "state": "the name of a State card, the form of state a player's goals follow (Mare Mediterraneum, M5.4)",
    "phase": "the name of a phase, as in the heading 'T3 build'; also read back in a 'phase' header",
}


FORM_NOTES = {
    PartKind.SYNTAX: "a placeholder of an order form: what the player writes there (in capitals, words joined by '-')",
    PartKind.GLOSS: "an order form's explanation, shown in brackets after it",
    PartKind.OR: "between two ways of writing an order line",
}


def _grammar_forms() -> Iterator[tuple[str, str, str]]:
    """The translated parts of the order forms (the `[forms]` of grammar/common.forms.toml and
    grammar/*.errors.toml): placeholders, glosses and 'or', shown to players in the help answer
    and after a syntax error (adjudicator/syntax_forms.py translates them by their English text)."""
    for path in sorted((ROOT / "grammar").glob("*.toml")):
        with path.open("rb") as handle:
            forms = tomllib.load(handle).get("forms", {})
        for number, form in enumerate(forms.values(), start=1):
            for part in form_parts(form):
                if part.kind in FORM_NOTES:
                    for text in placeholders(part.text) if part.kind is PartKind.SYNTAX else [part.text]:
                        yield f"grammar/{path.name}:{number}", text, FORM_NOTES[part.kind]


def extract() -> Catalog:
    """The template catalog: every message, with where it is used."""
    catalog = Catalog(domain=DOMAIN, project="adjudicator", charset="utf-8")
    for where, message, comment in (*_found(), *_grammar_labels(), *_grammar_forms()):
        path, _, line = where.rpartition(":")
        catalog.add(message, locations=[(path, int(line))], auto_comments=[comment] if comment else [])
    for ruleset, kind, word in _terms():
        known = catalog.get((word, word), context=kind)
        where = f"{ruleset} ({kind})"
        if known is not None:
            known.auto_comments.append(where)
        else:
            catalog.add((word, word), context=kind, auto_comments=[TERM_NOTES[kind], where])
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="adjudicator", charset="utf-8")
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def update() -> None:
    template = extract()
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        catalog = read(lang)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # a message the code no longer emits leaves the catalog (git keeps it)
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        with po_path(lang).open("wb") as handle:
            write_po(handle, catalog, width=100, sort_output=True, omit_header=False, include_previous=False)


def missing() -> dict[str, list[str]]:
    """Each language's messages without a translation (all plural forms filled), by language."""
    template = extract()
    gaps: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        catalog = read(lang)
        for message in template:
            if not message.id:
                continue
            found = catalog.get(message.id, context=message.context)
            strings = found.string if found is not None else None
            done = all(strings) if isinstance(strings, (tuple, list)) else bool(strings)
            if found is None or not done or found.fuzzy:
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                gaps.setdefault(lang, []).append(key)
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="list untranslated messages; exit 1 if any")
    if parser.parse_args().check:
        gaps = missing()
        for lang, messages in gaps.items():
            print(f"{lang}: {len(messages)} untranslated")
            for message in messages:
                print(f"    {message!r}")
        sys.exit(1 if gaps else 0)
    update()


if __name__ == "__main__":
    main()
