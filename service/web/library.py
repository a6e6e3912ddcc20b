"""The library's rules page: the rules text of :mod:`bangarena.rules_machine.render` (the same
text models read, built from rules.json and the engine's texts) in one language, as HTML. Cards,
characters and roles come to the page straight from ``GET /v1/rules``."""

from __future__ import annotations

import functools


@functools.cache
def rules_html(lang: str) -> str:
    """The full rules text in ``lang`` (en, pt, es, fr) rendered to HTML (no raw HTML passes)."""
    from markdown_it import MarkdownIt

    from bangarena.rules_machine.render import rules_text

    text = rules_text(lang, compact=False)
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


__all__ = ["rules_html"]
