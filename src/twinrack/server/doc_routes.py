"""The players' documents as pages: the card language (linked from the lobby and the card
editor) and the rules, rendered from the very Markdown files in docs/ that the tests run.

They are served at ``/docs/NAME.md``, so the documents' links to each other (``rules.md``
links ``card-language.md``) work unchanged, and their headings get the same anchors as on
GitHub, so that their tables of contents work too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token

from twinrack.server.deps import PagesDep

#: docs/ of the checkout the service runs from
DOCS = Path(__file__).resolve().parents[3] / "docs"
#: the documents written for players (the others are for developers)
PLAYER_DOCS = ("card-language", "rules", "accounts")

#: a doc-test marker: an HTML comment on a line of its own (tests/test_docs.py)
_MARKER = re.compile(r"^[ \t]*<!-- doc-test:.*-->[ \t]*\n", re.MULTILINE)

router = APIRouter()


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _with_anchors(tokens: list[Token]) -> None:
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            tok.attrSet("id", anchor(tokens[i + 1].content.replace("`", "")))


@lru_cache(maxsize=8)
def rendered(name: str, mtime: float) -> tuple[str, str]:
    """The document's title and its HTML (no raw HTML of its own passes: the markers are
    dropped); kept until the file changes."""
    text = _MARKER.sub("", (DOCS / f"{name}.md").read_text(encoding="utf-8"))
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    _with_anchors(tokens)
    title = next((tokens[i + 1].content for i, t in enumerate(tokens)
                  if t.type == "heading_open" and t.tag == "h1"), name)
    return title, str(md.renderer.render(tokens, md.options, {}))


@router.get("/docs/{name}.md", response_class=HTMLResponse)
async def document(name: str, page: PagesDep) -> HTMLResponse:
    path = DOCS / f"{name}.md"
    if name not in PLAYER_DOCS or not path.is_file():
        return page.message(404, "No such document", "TwinRack has no document for players "
                            "at this address.", "/docs/card-language.md")
    title, body = rendered(name, path.stat().st_mtime)
    return page("doc.html", title=title, body=body)
