"""What a page states about itself: title, byline, date, site, language, direction.

Read from the parsed document before scripts are removed, since JSON-LD lives in
`<script type="application/ld+json">`.
"""

from __future__ import annotations

import calendar
import html
import json
import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from lxml import etree

from addon.core.dom import attribute_values, elements_holding, text_content

JsonObject = dict[str, object]

_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//|^www\.", re.IGNORECASE)
_BY_PREFIX = re.compile(r"^(?:written\s+)?by\s*:?\s+", re.IGNORECASE)
# Separators and quotes around a name in templates: ", USA TODAY", '"David Kim"', "- Jane".
_NAME_PUNCTUATION = " ,;:|\"'“”‘’-–—·•"
_LANG_TAG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
_ISO_DATE = re.compile(
    r"^(\d{4})[-/](\d{2})[-/](\d{2})"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?"
)

# schema.org types whose headline, author and date are the page's own.
ARTICLE_TYPES = frozenset(
    {
        "article", "newsarticle", "blogposting", "report", "scholarlyarticle", "techarticle",
        "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
        "reviewnewsarticle", "backgroundnewsarticle", "liveblogposting", "socialmediaposting",
        "discussionforumposting", "medicalscholarlyarticle", "advertisercontentarticle",
        "satiricalarticle", "posting", "howto", "recipe", "creativework", "question",
    }
)  # fmt: skip
PAGE_TYPES = frozenset(
    {
        "webpage", "itempage", "aboutpage", "faqpage", "qapage", "collectionpage",
        "profilepage", "medicalwebpage", "contactpage", "searchresultspage",
    }
)  # fmt: skip

# The schema.org types by which a page declares itself a discussion thread: a
# forum topic's opening post, a question page with its answers.
DISCUSSION_TYPES = frozenset({"discussionforumposting", "qapage"})
# ... and in microdata, a page's posts typed as comments: XenForo and phpBB themes
# type each reply so, with no type for the topic. On wcxb-dev every one of the 41
# pages with such items is a forum thread; an article's comment section typed
# so only keeps its comments' names and dates, should it come.
MICRODATA_DISCUSSION_TYPES = DISCUSSION_TYPES | {"comment"}

# <meta> keys (name, property, itemprop, http-equiv; lowercased) in order of trust.
_AUTHOR_KEYS = (
    "author", "article:author", "parsely-author", "sailthru.author", "dc.creator",
    "citation_author", "byl",
)  # fmt: skip
_DATE_KEYS = ("article:published_time", "datepublished", "og:article:published_time")
_LATE_DATE_KEYS = (
    "og:published_time", "published-date", "published-time", "date-pub", "parsely-pub-date",
    "sailthru.date", "pubdate", "publishdate", "publish-date", "citation_publication_date",
    "citation_date", "dc.date.issued", "dc.date", "date",
)  # fmt: skip
# Where a page's own date sits: a <time> in a header or in a byline/meta line.
_HEADERISH_CLASS = re.compile(r"byline|post-meta|entry-meta|article-meta|post-date")
# How deep author/publisher values are followed (lists, @id references, which can cycle).
_MAX_LD_DEPTH = 3
_RTL_OR_LTR = frozenset({"rtl", "ltr"})
_IRI_SEPARATORS = re.compile(r"[/#:]")

# The elements read_metadata() reads, found in one walk over the tree.
_READ_TAGS = ("meta", "script", "title", "base", "time")
# The earlier of two elements in document order.
_EARLIER = etree.XPath("($a | $b)[1]")


@dataclass(frozen=True, slots=True)
class PageMeta:
    """Facts a page states about itself; None where it states nothing usable."""

    title: str
    og_title: str | None
    ld_headline: str | None
    og_url: str | None  # the page's own address as it states it
    byline: str | None
    published: str | None
    site_name: str | None
    description: str | None
    lang: str | None
    dir: str | None
    base_href: str | None
    # Its JSON-LD declares a discussion thread (one of DISCUSSION_TYPES).
    discussion: bool = False
    # Its og:type is "article"; its JSON-LD names one of ARTICLE_TYPES.
    og_article: bool = False
    ld_article: bool = False


@dataclass(frozen=True, slots=True)
class Declared:
    """What the page says it is: og:type "article", a schema.org Article type."""

    open_graph: bool = False
    schema: bool = False


NOTHING_DECLARED = Declared()


@dataclass(slots=True)
class _Marked:
    """The page's itemprop attributes and author links, found when first asked for."""

    root: etree._Element
    found: dict[etree._Element, str] | None = None

    def itemprops(self) -> dict[etree._Element, str]:
        """Map the elements with an itemprop to its value, in document order."""
        if self.found is None:
            self.found = attribute_values(self.root, "itemprop")
        return self.found

    def author_links(self) -> list[etree._Element]:
        """Return the links whose rel may say author, in document order."""
        # Only those links get a proxy: most pages' rel values are nofollow and the like.
        return elements_holding(self.root, "a", "rel", "author")

    def earlier(self, first: etree._Element, second: etree._Element) -> etree._Element:
        """Return whichever element comes first in the document."""
        # lxml takes elements as XPath variables; its type stubs do not say so.
        found = _EARLIER(self.root, a=cast(Any, first), b=cast(Any, second))
        earlier = found[0] if isinstance(found, list) and found else first
        return earlier if isinstance(earlier, etree._Element) else first


@dataclass(frozen=True, slots=True)
class _LinkedData:
    """The page's JSON-LD objects, breadth first, with its main objects picked out."""

    nodes: tuple[JsonObject, ...]
    by_id: dict[str, JsonObject]
    main: tuple[JsonObject, ...]  # Article-family objects, then WebPage-family ones


def read_metadata(
    root: etree._Element,
    *,
    max_ld_json_chars: int = 1_000_000,
    max_ld_nodes: int = 20_000,
    max_byline_chars: int = 200,
) -> PageMeta:
    """Read a parsed page's title, byline, date, site name, language, direction and base."""
    # max_ld_json_chars / max_ld_nodes bound the work on hostile or bloated JSON-LD
    # (framework state dumps run to megabytes); max_byline_chars rejects a whole
    # paragraph marked up as the author.
    found = _elements(root)
    marked = _Marked(root)
    metas = _meta_values(found["meta"])
    linked = _linked_data(found["script"], max_chars=max_ld_json_chars, max_nodes=max_ld_nodes)
    return PageMeta(
        title=_title(found["title"]),
        og_title=_first_meta(metas, ("og:title",)),
        ld_headline=_ld_headline(linked),
        og_url=_first_meta(metas, ("og:url",)),
        byline=_byline(marked, metas, linked, max_chars=max_byline_chars),
        published=_published(marked, metas, linked, found["time"]),
        site_name=_site_name(metas, linked),
        description=_first_meta(metas, ("description", "og:description", "twitter:description")),
        lang=_lang(root, metas),
        dir=_dir(root),
        base_href=_base_href(found["base"]),
        discussion=any(_types(node) & DISCUSSION_TYPES for node in linked.nodes),
        og_article="article" in (value.lower() for value in metas.get("og:type", ())),
        ld_article=any(_types(node) & ARTICLE_TYPES for node in linked.nodes),
    )


def declares_article(root: etree._Element, meta: PageMeta) -> Declared:
    """Tell whether the page calls itself an article, in og:type and in JSON-LD or microdata."""
    # Microdata is read only where og:type says it first: the walk is not free,
    # and the schema.org type counts only beside it (readerable.DeclaredArticle).
    schema = meta.ld_article or (
        meta.og_article and _microdata_types(root) & ARTICLE_TYPES != set()
    )
    return Declared(open_graph=meta.og_article, schema=schema)


def _microdata_types(root: etree._Element) -> set[str]:
    """Return the schema.org type names of the page's itemtype attributes, lowercased."""
    return {
        _IRI_SEPARATORS.split(name)[-1].lower()
        for value in attribute_values(root, "itemtype").values()
        for name in str(value).split()
    }


def declares_discussion(root: etree._Element, meta: PageMeta) -> bool:
    """Tell whether the page declares itself a discussion thread, in JSON-LD or microdata."""
    if meta.discussion:
        return True
    # Microdata read only when asked: the walk over every attribute is not free.
    return _microdata_types(root) & MICRODATA_DISCUSSION_TYPES != set()


def _elements(root: etree._Element) -> dict[str, list[etree._Element]]:
    """Map each tag read_metadata() reads to its elements, in document order."""
    found: dict[str, list[etree._Element]] = {tag: [] for tag in _READ_TAGS}
    top = _html(root)
    for element in root.iter(*_READ_TAGS):
        found[element.tag].append(element)
    if top is not root:
        # <title> and <base> are the document's, wherever `root` sits in it.
        found["title"] = list(top.iter("title"))
        found["base"] = list(top.iter("base"))
    return found


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and trim."""
    # str.split() takes the same characters for space as the regex \s, and is
    # the faster way to collapse them.
    return " ".join(text.split())


def _title(titles: list[etree._Element]) -> str:
    """Return the document's <title> text (not an SVG's), whitespace collapsed."""
    for title in titles:
        if next(title.iterancestors("svg"), None) is None:
            return collapse(text_content(title))
    return ""


def _meta_values(metas: list[etree._Element]) -> dict[str, list[str]]:
    """Map each lowercased <meta> name/property/itemprop/http-equiv to its contents."""
    values: dict[str, list[str]] = {}
    for meta in metas:
        content = collapse(meta.get("content") or "")
        if not content:
            continue
        keys = f"{meta.get('name') or ''} {meta.get('property') or ''} {meta.get('itemprop') or ''}"
        for key in {*keys.lower().split(), (meta.get("http-equiv") or "").strip().lower()}:
            values.setdefault(key, []).append(content)
    values.pop("", None)
    return values


def _first_meta(metas: dict[str, list[str]], keys: Iterable[str]) -> str | None:
    """Return the first content of the first key present."""
    return next((metas[key][0] for key in keys if key in metas), None)


def _linked_data(scripts: list[etree._Element], *, max_chars: int, max_nodes: int) -> _LinkedData:
    """Parse the page's JSON-LD scripts, ignoring invalid and oversized ones."""
    documents: list[object] = []
    for script in scripts:
        kind = (script.get("type") or "").split(";")[0].strip().lower()
        # Only JSON-LD text is read: inline JavaScript runs to megabytes.
        text = (script.text or "") if kind == "application/ld+json" else ""
        if text and len(text) <= max_chars:
            documents.extend(_parse_json(text))
    nodes = tuple(_json_objects(documents, max_nodes=max_nodes))
    by_id: dict[str, JsonObject] = {}
    for node in nodes:
        key = node.get("@id")
        # A bare {"@id": ...} is a reference to the node, not the node itself.
        if isinstance(key, str) and len(node) > 1:
            by_id.setdefault(key, node)
    articles = [node for node in nodes if _types(node) & ARTICLE_TYPES]
    pages = [node for node in nodes if _types(node) & PAGE_TYPES]
    return _LinkedData(nodes, by_id, (*articles, *pages))


def _parse_json(text: str) -> list[object]:
    """Return the JSON value of a script as a one-item list, or [] if it is not JSON."""
    # Pages wrap JSON-LD in comments or CDATA and leave trailing semicolons.
    source = text.strip().removeprefix("<!--").removesuffix("-->").strip()
    source = source.removeprefix("//<![CDATA[").removesuffix("//]]>").strip().rstrip(";")
    try:
        # strict=False: raw newlines and tabs inside strings are common and harmless.
        return [json.loads(source, strict=False)]
    except (ValueError, RecursionError):
        # Invalid or absurdly nested JSON-LD is the page's error: it states nothing.
        return []


def _json_objects(documents: list[object], *, max_nodes: int) -> Iterator[JsonObject]:
    """Yield every JSON object in the documents, breadth first, visiting at most max_nodes."""
    queue: deque[object] = deque(documents)
    visited = 0
    while queue and visited < max_nodes:
        value = queue.popleft()
        visited += 1
        if isinstance(value, dict):
            yield value
            queue.extend(value.values())
        elif isinstance(value, list):
            queue.extend(value)


def _types(node: JsonObject) -> set[str]:
    """Return a JSON-LD object's @type names, lowercased, without IRI prefixes."""
    raw = node.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    return {_IRI_SEPARATORS.split(name)[-1].lower() for name in names if isinstance(name, str)}


def _text(value: object) -> str | None:
    """Return a JSON-LD value as collapsed text, or None if it is not a non-empty string."""
    if isinstance(value, dict):
        value = value.get("@value")
    if isinstance(value, list) and value:
        value = value[0]
    # Many CMSs HTML-escape the strings they put in JSON-LD ("Maria &amp; Katerina").
    return (collapse(html.unescape(value)) or None) if isinstance(value, str) else None


def _ld_headline(linked: _LinkedData) -> str | None:
    """Return the headline (or name) of the page's main JSON-LD object."""
    for node in linked.main:
        text = _text(node.get("headline")) or _text(node.get("name"))
        if text:
            return text
    return None


def _ld_names(value: object, linked: _LinkedData, depth: int = 0) -> list[str]:
    """Return the names in a JSON-LD author/publisher value (string, object, @id or list)."""
    if depth > _MAX_LD_DEPTH:
        return []
    if isinstance(value, list):
        return [name for item in value for name in _ld_names(item, linked, depth + 1)]
    if isinstance(value, dict):
        name = _text(value.get("name"))
        reference = value.get("@id")
        if name is None and isinstance(reference, str) and reference in linked.by_id:
            return _ld_names(linked.by_id[reference], linked, depth + 1)
        return [name] if name else []
    text = _text(value)
    return [text] if text else []


def _ld_value(linked: _LinkedData, key: str) -> object:
    """Return `key` of the first main JSON-LD object that has it, else of any object."""
    for node in (*linked.main, *linked.nodes):
        if node.get(key):
            return node[key]
    return None


def _byline(
    marked: _Marked, metas: dict[str, list[str]], linked: _LinkedData, *, max_chars: int
) -> str | None:
    """Return the author(s) named by the most trusted source that names any."""
    for names in _author_candidates(marked, metas, linked):
        byline = _join_names(names, max_chars=max_chars)
        if byline:
            return byline
    return None


def _author_candidates(
    marked: _Marked, metas: dict[str, list[str]], linked: _LinkedData
) -> Iterator[list[str]]:
    """Yield author name lists: JSON-LD, then <meta> author keys, then rel/itemprop=author."""
    # JSON-LD first: it names people, where <meta name=author> more often holds the
    # site's name (wcxb-dev: 475 vs 470 of 739 bylines exact).
    yield _ld_names(_ld_value(linked, "author"), linked)
    yield from (metas.get(key, []) for key in _AUTHOR_KEYS)
    # Forum threads mark every post's author: the first is the page's own.
    yield _marked_author(marked)


def _join_names(names: Iterable[str], *, max_chars: int) -> str | None:
    """Join distinct plausible author names with ", "; None if none is plausible."""
    kept: list[str] = []
    for raw in names:
        name = _BY_PREFIX.sub("", collapse(raw)).strip(_NAME_PUNCTUATION)
        if name and _names_someone(name) and len(name) <= max_chars and name not in kept:
            kept.append(name)
    return ", ".join(kept) or None


def _names_someone(name: str) -> bool:
    """Tell whether an author value is a name: not an address, not a number."""
    # Facebook's article:author takes a profile's address or its numeric id (wcxb-dev
    # 0404: "262588213843476", shown as the byline).
    return not _URL.match(name) and not name.replace(" ", "").isdigit()


def _marked_author(marked: _Marked) -> list[str]:
    """Return the text of the first element marked rel=author or itemprop=author, if any."""
    # Links with a rel and elements with an itemprop, each list in document order.
    firsts = [
        element
        for candidates in (marked.author_links(), list(marked.itemprops()))
        if (element := next(filter(_marks_author, candidates), None)) is not None
    ]
    if not firsts:
        return []
    element = firsts[0] if len(firsts) == 1 else marked.earlier(*firsts)
    named = element.find(".//*[@itemprop='name']")
    source = element if named is None else named
    return [source.get("content") or text_content(source)]


def _marks_author(element: etree._Element) -> bool:
    """Tell whether an element's rel or itemprop says author."""
    return "author" in f"{element.get('rel')} {element.get('itemprop')}".lower().split()


def _published(
    marked: _Marked, metas: dict[str, list[str]], linked: _LinkedData, times: list[etree._Element]
) -> str | None:
    """Return the first publication date the page states in ISO 8601 form."""
    for value in _date_candidates(marked, metas, linked, times):
        date = iso_date(value) if value else None
        if date:
            return date
    return None


def _date_candidates(
    marked: _Marked, metas: dict[str, list[str]], linked: _LinkedData, times: list[etree._Element]
) -> Iterator[str | None]:
    """Yield date strings, most trusted first: meta, JSON-LD, header <time>, itemprop, rest."""
    yield from (metas[key][0] for key in _DATE_KEYS if key in metas)
    yield from (_text(node.get("datePublished")) for node in (*linked.main, *linked.nodes))
    yield from (time.get("datetime") for time in _dated_times(times) if _in_header(time))
    yield from _itemprop_dates(marked)
    yield from (metas[key][0] for key in _LATE_DATE_KEYS if key in metas)
    # Last resort: the first machine-readable <time>; on pages that state no date
    # elsewhere it is the post's own date far more often than not (wcxb-dev: 29 of 37).
    yield from (time.get("datetime") for time in _dated_times(times))


def _dated_times(times: list[etree._Element]) -> Iterator[etree._Element]:
    """Yield the <time> elements that carry a datetime attribute, in document order."""
    return (time for time in times if time.get("datetime"))


def _in_header(time: etree._Element) -> bool:
    """Return whether a <time> is flagged pubdate or sits in a header or byline area."""
    if time.get("pubdate") is not None:
        return True
    return any(
        ancestor.tag == "header" or _HEADERISH_CLASS.search(ancestor.get("class") or "")
        for ancestor in time.iterancestors()
    )


def _itemprop_dates(marked: _Marked) -> list[str]:
    """Return the values of elements marked itemprop=datePublished."""
    return [
        element.get("content") or element.get("datetime") or text_content(element)
        for element, value in marked.itemprops().items()
        if value == "datePublished"
    ]


def iso_date(value: str, *, min_year: int = 1000) -> str | None:
    """Return an ISO 8601 date or date-time from a date string, or None if it has none."""
    # min_year: CMSs print placeholders such as 0001-01-01 (an empty .NET DateTime).
    match = _ISO_DATE.match(value.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    if (
        int(year) < min_year
        or not 1 <= int(month) <= 12
        or not 1 <= int(day) <= calendar.monthrange(int(year), int(month))[1]
    ):
        return None
    date = f"{year}-{month}-{day}"
    if hour is None or int(hour) > 23 or int(minute) > 59:
        return date
    zone = zone or ""
    if len(zone) == 5:  # +0100 -> +01:00
        zone = f"{zone[:3]}:{zone[3:]}"
    return f"{date}T{hour}:{minute}:{second or '00'}{zone}"


def _site_name(metas: dict[str, list[str]], linked: _LinkedData) -> str | None:
    """Return the site's name: og:site_name, JSON-LD publisher or WebSite, application-name."""
    found = _first_meta(metas, ("og:site_name",))
    if found:
        return found
    publisher = _ld_names(_ld_value(linked, "publisher"), linked)
    websites = [_text(node.get("name")) for node in linked.nodes if "website" in _types(node)]
    return next(
        (name for name in (*publisher, *websites) if name),
        _first_meta(metas, ("application-name",)),
    )


def _html(root: etree._Element) -> etree._Element:
    """Return the document's root element."""
    top = root.getroottree().getroot()
    return top if isinstance(top, etree._Element) else root


def _lang(root: etree._Element, metas: dict[str, list[str]]) -> str | None:
    """Return the page's language: <html lang>/xml:lang, else the Content-Language meta."""
    top = _html(root)
    candidates = (
        top.get("lang"),
        top.get("xml:lang"),
        top.get("{http://www.w3.org/XML/1998/namespace}lang"),
        _first_meta(metas, ("content-language", "language", "og:locale")),
    )
    return next((tag for tag in map(normalise_lang, candidates) if tag), None)


def content_ancestry(top: Sequence[etree._Element]) -> list[etree._Element]:
    """Return the elements that hold all of the chosen subtrees, nearest first."""
    # One subtree: itself and its ancestors. Several: their common ancestors, since
    # what one subtree declares for itself is not said of the others.
    chains = [[element, *element.iterancestors()] for element in top]
    if len(chains) < 2:
        return chains[0] if chains else []
    shared = set.intersection(*(set(chain) for chain in chains[1:]))
    return [element for element in chains[0] if element in shared]


def declared_lang(top: Sequence[etree._Element]) -> str | None:
    """Return the language declared nearest the chosen content: lang or xml:lang, up to <html>."""
    # The nearest declaration is the one that applies (HTML's language rule): an
    # article in a <div lang="es"> of an English site is Spanish. An empty or
    # malformed value is read as no declaration, as _lang() reads <html>'s, so
    # the Content-Language meta or detection may still say.
    for element in content_ancestry(top):
        for value in (element.get("lang"), element.get("xml:lang")):
            tag = normalise_lang(value) if value else None  # most ancestors have neither
            if tag:
                return tag
    return None


def normalise_lang(value: str | None) -> str | None:
    """Return a BCP 47 tag in canonical case ("pt-BR", "zh-Hant-TW"), or None if invalid."""
    tag = (value or "").split(",")[0].strip().replace("_", "-")
    if not _LANG_TAG.match(tag):
        return None
    primary, *rest = tag.split("-")
    return "-".join([primary.lower(), *(_subtag_case(subtag) for subtag in rest)])


def _subtag_case(subtag: str) -> str:
    """Return a non-primary subtag in BCP 47 case: Script, REGION, variant."""
    if len(subtag) == 4 and subtag.isalpha():
        return subtag.title()
    if (len(subtag) == 2 and subtag.isalpha()) or (len(subtag) == 3 and subtag.isdigit()):
        return subtag.upper()
    return subtag.lower()


def _dir(root: etree._Element) -> str | None:
    """Return "rtl"/"ltr" from <html dir> or <body dir>; None if absent or "auto"."""
    top = _html(root)
    for element in (top, top.find("body")):
        value = (element.get("dir") or "").strip().lower() if element is not None else ""
        if value in _RTL_OR_LTR:
            return value
    return None


def _base_href(bases: list[etree._Element]) -> str | None:
    """Return the first <base href>, or None."""
    for base in bases:
        href = (base.get("href") or "").strip()
        if href:
            return href
    return None
