"""The rules pages: the rule texts of :mod:`cardtable.rules` as HTML.

The Markdown goes through markdown-it-py (CommonMark plus tables), with four changes:

* a ruling's anchor line (``<a id="lr-7"></a>``) becomes the ``id`` of the heading
  under it, so ``/rules/lost-ranks#lr-7`` lands on the ruling's heading, and every
  other section heading gets an id of its own, for the table of contents;
* a ``cards`` picture (:mod:`cardtable.rules.pictures`) becomes rows of card
  elements (``<span class="rules-card" data-card="9D">``), which ``rules.js`` draws
  with the table's own ``cards.js``; without JavaScript they read as card names;
* links between the rule files (``lost-ranks.ru.md#lr-7``) become links between the
  pages (``/rules/lost-ranks?lang=ru#lr-7``);
* the page is wrapped in the site's header with its language switch.

>>> page = rules_page("lost-ranks", "en")
>>> '<h3 id="lr-7">LR-7 Following</h3>' in page
True
>>> 'href="#lr-7"' in page and 'data-card="9D"' in page
True
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Final, Sequence

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from cardtable.i18n import message
from cardtable.rules import LANGUAGES, check_language, check_rules, rules_games, rules_text, rules_title
from cardtable.rules.pictures import FENCE_INFO, Picture, PictureCard, card_text, parse_picture

_ANCHOR: Final = re.compile(r'^<a id="([a-z0-9-]+)"></a>\s*$')
_RULES_LINK: Final = re.compile(r"^(?:\./)?(?P<game>[a-z-]+?)(?:\.(?P<lang>[a-z]{2}))?\.md(?P<frag>#.*)?$")

TEXTS: Final = {
    "en": {"rules": "Rules", "contents": "Contents", "lobby": "Lobby", "games": "Rules of the games",
           "no_page": "No such rules page"},
    "ru": {"rules": "Правила", "contents": "Содержание", "lobby": "Лобби", "games": "Правила игр",
           "no_page": "Такой страницы правил нет"},
}
"""The words of the page around the rule text, in each language."""


@dataclass
class Section:
    """A heading of the table of contents and the rulings under it."""

    id: str
    title: str
    children: list[Section] = field(default_factory=list)


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^\w]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _lift_anchors(markdown: str) -> tuple[str, dict[int, str]]:
    """The text without its ruling anchor lines, and the anchors by the line (0-based, in
    the new text) of the heading each stood above."""
    lines: list[str] = []
    anchors: dict[int, str] = {}
    for line in markdown.splitlines():
        match = _ANCHOR.match(line)
        if match:
            anchors[len(lines)] = match.group(1)
        else:
            lines.append(line)
    return "\n".join(lines) + "\n", anchors


def _with_heading_ids(tokens: list[Token], anchors: dict[int, str]) -> list[Section]:
    """Give each heading its ruling's anchor (or an id of its own) and list them."""
    toc: list[Section] = []
    taken = set(anchors.values())
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.tag not in ("h2", "h3"):
            continue
        title = tokens[i + 1].content
        line = token.map[0] if token.map else -1
        section = Section(anchors.get(line) or _slug(title, taken), title)
        token.attrSet("id", section.id)
        if token.tag == "h2" or not toc:
            toc.append(section)
        else:
            toc[-1].children.append(section)
    return toc


def _page_link(href: str, lang: str) -> str:
    """``lost-ranks.ru.md#lr-7`` → ``/rules/lost-ranks?lang=ru#lr-7``; other links unchanged."""
    if href == "README.md":
        return f"/rules?lang={lang}"
    match = _RULES_LINK.match(href)
    if match is None or match.group("game") not in rules_games():
        return href
    return f"/rules/{match.group('game')}?lang={match.group('lang') or 'en'}{match.group('frag') or ''}"


def _card_html(card: PictureCard, game: str) -> str:
    marked = ' data-marked="true"' if card.marked else ""
    name = card_text(PictureCard(card.name), game)
    return f'<span class="rules-card" data-card="{html.escape(card.name)}"{marked}>{html.escape(name)}</span>'


def picture_html(picture: Picture, game: str) -> str:
    """A picture as a figure of rows: label, cards, note."""
    rows = []
    for row in picture.rows:
        label = f'<span class="cards-label">{html.escape(row.label)}</span>' if row.label else ""
        cards = " ".join(_card_html(card, game) for card in row.cards)
        note = f'<span class="cards-note">→ {html.escape(row.note)}</span>' if row.note else ""
        rows.append(f'<div class="cards-row">{label}<span class="cards-hand">{cards}</span>{note}</div>')
    return f'<figure class="cards-picture">{"".join(rows)}</figure>\n'


def _renderer(game: str, lang: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    renderer = md.renderer
    assert isinstance(renderer, RendererHTML)
    default_fence = renderer.rules["fence"]

    def fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if token.info.strip() == FENCE_INFO:
            return picture_html(parse_picture(token.content, game), game)
        return str(default_fence(tokens, idx, options, env))

    def link_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        token.attrSet("href", _page_link(str(token.attrGet("href") or ""), lang))
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("fence", fence)
    md.add_render_rule("link_open", link_open)
    return md


def rules_body(game: str, lang: str) -> tuple[str, list[Section]]:
    """The rule text of ``game`` in ``lang`` as HTML, and its table of contents."""
    md = _renderer(game, lang)
    text, anchors = _lift_anchors(rules_text(game, lang))
    tokens = md.parse(text)
    toc = _with_heading_ids(tokens, anchors)
    return md.renderer.render(tokens, md.options, {}), toc


def _toc_html(toc: list[Section], lang: str) -> str:
    def items(sections: list[Section]) -> str:
        return "".join(
            f'<li><a href="#{s.id}">{html.escape(s.title)}</a>'
            + (f"<ol>{items(s.children)}</ol>" if s.children else "") + "</li>"
            for s in sections)

    return (f'<nav class="rules-toc" aria-label="{TEXTS[lang]["contents"]}"><details open>'
            f'<summary>{TEXTS[lang]["contents"]}</summary><ol>{items(toc)}</ol></details></nav>')


def _lang_switch(path: str, lang: str) -> str:
    links = "".join(
        f'<a href="{path}?lang={code}" data-lang="{code}" hreflang="{code}" lang="{code}"'
        + (' class="active" aria-current="true"' if code == lang else "") + f">{code.upper()}</a>"
        for code in LANGUAGES)
    return f'<nav class="lang-switch" aria-label="Language / Язык">{links}</nav>'


def _document(lang: str, title: str, path: str, main: str, game: str = "") -> str:
    words = TEXTS[lang]
    return f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
  <meta name="color-scheme" content="light">
  <meta name="referrer" content="no-referrer">
  <title>{html.escape(title)} — cardtable</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
  <link rel="stylesheet" href="/static/rules.css">
  <script type="module" src="/static/rules.js"></script>
</head>
<body class="rules-body" data-lang="{lang}" data-game="{game}">
<header class="topbar">
  <a class="brand" href="/" title="{words['lobby']}"><span class="logo" aria-hidden="true">♠♥</span> cardtable</a>
  <div class="topbar-mid"><a class="page-title rules-home" href="/rules?lang={lang}">{words['rules']}</a></div>
  {_lang_switch(path, lang)}
</header>
{main}
</body>
</html>
"""


def rules_page(game: str, lang: str) -> str:
    """The whole page of ``game``'s rules in ``lang``."""
    check_rules(game, lang)
    body, toc = rules_body(game, lang)
    learn = f'<p class="rules-tutorial"><a href="/tutorial/{game}?lang={lang}">{html.escape(message("tutorial.learn", lang))}</a></p>'
    main = f'<main class="rules-layout">{_toc_html(toc, lang)}<article class="rules-text">{learn}{body}</article></main>'
    return _document(lang, rules_title(game, lang), f"/rules/{game}", main, game)


def rules_index_page(lang: str) -> str:
    """The page listing every game's rules, in ``lang`` with a link to the other language."""
    check_language(lang)
    items = "".join(
        f'<li><a href="/rules/{game}?lang={lang}">{html.escape(rules_title(game, lang))}</a>'
        + "".join(f' <a class="other-lang" href="/rules/{game}?lang={other}" hreflang="{other}">{other.upper()}</a>'
                  for other in LANGUAGES if other != lang) + "</li>"
        for game in rules_games())
    main = (f'<main class="rules-layout rules-index"><article class="rules-text">'
            f'<h1>{TEXTS[lang]["games"]}</h1><ul class="rules-games">{items}</ul></article></main>')
    return _document(lang, TEXTS[lang]["games"], "/rules", main)


def missing_rules_page(message: str, lang: str) -> str:
    """The page of an unknown game or language: what was wrong and the pages there are."""
    lang = lang if lang in LANGUAGES else "en"
    items = "".join(f'<li><a href="/rules/{game}?lang={lang}">{html.escape(rules_title(game, lang))}</a></li>'
                    for game in rules_games())
    main = (f'<main class="rules-layout rules-index"><article class="rules-text" role="alert">'
            f'<h1>{TEXTS[lang]["no_page"]}</h1><p class="error">{html.escape(message, quote=False)}</p>'
            f'<ul class="rules-games">{items}</ul></article></main>')
    return _document(lang, TEXTS[lang]["no_page"], "/rules", main)


def preferred_language(query: str | None, accept_language: str | None) -> str:
    """The page's language: ``?lang=`` if given (checked by the caller), else the first
    language of ``Accept-Language`` that the rules have (as the site's ``i18n.js`` picks
    from ``navigator.languages``), else English.

    >>> preferred_language(None, "ru-RU,ru;q=0.9,en;q=0.8"), preferred_language("en", "ru"), preferred_language(None, "de")
    ('ru', 'en', 'en')
    """
    if query:
        return query
    for part in (accept_language or "").split(","):
        base = part.split(";")[0].strip().lower().split("-")[0]
        if base in LANGUAGES:
            return base
    return "en"


__all__ = ["Section", "TEXTS", "missing_rules_page", "picture_html", "preferred_language", "rules_body",
           "rules_index_page", "rules_page"]
