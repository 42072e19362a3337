"""Every page of the site, as a browser with games and a card finds them: each link and
resource on it answers 200 (no dead link), each anchor it points to exists, and the page has
one ``h1`` and a skip link to its main content."""

from __future__ import annotations

import random
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

from tests.server.drive import Players
from tests.server.helpers import create_table, make_client

GOOD = 'name = "Mine"\n\n[[hand]]\nsection = "A"\npattern = "FF 1111a 2222a 3333a"\nvalue = 25\n'
ORIGIN = "http://testserver"


class Page(HTMLParser):
    """The links, resources, element ids, h1 headings and skip links of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.h1 = 0
        self.skip: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "h1":
            self.h1 += 1
        if tag == "a" and "skip-link" in a.get("class", ""):
            self.skip.append(a["href"])
        for name in ("href", "src"):
            if name in a and tag in ("a", "link", "script", "img"):
                self.links.append(a[name])


def crawl(client: object, starts: list[str]) -> dict[str, Page]:
    """Every same-origin page and resource reachable from ``starts``, each fetched once;
    returns the HTML pages. A link answering anything but 200 fails the test."""
    pages: dict[str, Page] = {}
    fragments: list[tuple[str, str, str]] = []  # (page, target, anchor)
    todo = [urljoin(ORIGIN, s) for s in starts]
    seen = set(todo)
    while todo:
        url = todo.pop()
        r = client.get(url)  # type: ignore[attr-defined]
        assert r.status_code == 200, f"{url} answers {r.status_code}"
        if not r.headers["content-type"].startswith("text/html"):
            continue
        page = Page()
        page.feed(r.text)
        pages[url] = page
        for link in page.links:
            target, fragment = urldefrag(urljoin(url, link))
            if urlsplit(target).netloc != "testserver":
                assert target.startswith("https://"), f"{url} links {link}"
                continue
            if fragment:
                fragments.append((url, target, fragment))
            if target not in seen:
                seen.add(target)
                todo.append(target)
    for url, target, fragment in fragments:
        if target in pages:
            assert fragment in pages[target].ids, f"{url} links #{fragment} of {target}"
    return pages


def test_every_link_on_every_page_answers_and_every_page_has_its_h1(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/cards")
        card_id = client.post("/api/cards", json={"source": GOOD}).json()["id"]
        game_id, tokens = create_table(client, seat1="human")  # invite links
        with Players.at_new_table(client) as finished:
            rng = random.Random(4)
            while not finished.over:
                finished.step(rng)
        desk = client.post("/desk", data={"name": "Spring Open", "seats": "4", "rounds": "2",
                                          "minutes": "50", "revision": "2024"},
                           follow_redirects=False).headers["location"]
        pages = crawl(client, ["/", "/history", f"/t/{game_id}/ready", f"/cards/{card_id}",
                               f"/t/{game_id}/join?token={tokens[1]}", f"/t/{game_id}", desk])
    visited = {urlsplit(u).path for u in pages}
    for path in ["/", "/history", "/cards", "/desk", f"/t/{game_id}", f"/t/{game_id}/ready",
                 f"/t/{game_id}/join", f"/t/{finished.game_id}/replay",
                 "/docs/card-language.md", f"/cards/{card_id}", urlsplit(desk).path,
                 urlsplit(desk).path.removesuffix("/created")]:
        assert path in visited, path
    for url, page in pages.items():
        assert page.h1 == 1, f"{url} has {page.h1} h1 headings"
        assert page.skip == ["#main"] and "main" in page.ids, url
