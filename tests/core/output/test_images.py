"""Tests for addon.core.output.images."""

from __future__ import annotations

import lxml.html
import pytest

from addon.core.heuristics.parse import parse
from addon.core.output.images import (
    adopt_captions,
    bind_captions,
    image_from_itemid,
    is_placeholder,
    pick_from_srcset,
    scrub_image,
)
from addon.core.output.urls import UrlBase


def test_pick_from_srcset() -> None:
    assert pick_from_srcset("a.jpg 100w, b.jpg 1600w, c.jpg 1601w") == "b.jpg"
    assert pick_from_srcset("a.jpg 2000w, b.jpg 1800w") == "b.jpg"
    assert pick_from_srcset("a.jpg, b.jpg 2x") == "a.jpg"
    assert pick_from_srcset(" , ") is None


def test_placeholder_words_match_in_any_case_and_script() -> None:
    assert is_placeholder("https://example.com/img/Blank.GIF")
    assert is_placeholder("https://example.com/img/\u017fpacer.gif")  # long s matches s
    assert is_placeholder("https://example.com/\u00e9t\u00e9/lazy_load.jpg")
    assert is_placeholder("https://example.com/pixel.png\n?x=1")  # $ matches before \n
    assert not is_placeholder("https://example.com/img/photo.jpg")
    assert not is_placeholder("https://example.com/gif/blank-page.jpg")


GIF_1X1 = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def test_placeholder_rules() -> None:
    assert is_placeholder("")
    assert is_placeholder(GIF_1X1)
    assert is_placeholder("https://x.example/img/blank.gif?v=2")
    assert is_placeholder("data:image/png;base64," + "A" * 600, has_alternative=True)
    assert not is_placeholder("data:image/png;base64," + "A" * 600)
    assert not is_placeholder("https://x.example/img/loading-dock.jpg")


@pytest.mark.parametrize(
    ("attributes", "kept"),
    [
        ('width="1" height="1"', False),  # a tracking pixel
        ('width="0" height="0"', False),
        ('height="1"', False),
        ('width="570" height="0"', True),  # cnet: the height left to the style sheet
        ('width="0" height="0" sizes="100vw" srcset="/a.jpg 640w"', True),  # Next.js
        ('width="640" height="480"', True),
    ],
)
def test_only_a_pixel_in_every_declared_dimension_is_a_tracking_pixel(
    attributes: str, kept: bool
) -> None:
    img = lxml.html.fragment_fromstring(f'<img src="https://example.com/photo.jpg" {attributes}>')
    scrub_image(img, UrlBase.of("https://example.com/story"))
    assert (img.tag == "img") is kept


def test_a_figure_named_by_its_microdata_gets_its_image_unless_the_url_is_broken() -> None:
    # The second URL holds a control character, which the parser keeps and lxml refuses
    # from its API: giving it to a new image raised.
    root = parse(
        '<body><figure itemtype="https://schema.org/ImageObject" itemid="https://img.example/a.jpg">'
        "<figcaption>A</figcaption></figure>"
        '<figure itemtype="https://schema.org/ImageObject" itemid="https://img.example/b\x03.jpg">'
        "<figcaption>B</figcaption></figure></body>"
    )
    assert root is not None
    first, second = root.iter("figure")
    image_from_itemid(first)
    image_from_itemid(second)
    assert first[0].get("src") == "https://img.example/a.jpg"
    assert second.find("img") is None


BASE = UrlBase.of("https://blog.example/2025/12/art-diary")
PLACEHOLDER = "https://blog.example/wp-content/plugins/a3-lazy-load/lazy_placeholder.gif"


def _bound(body: str) -> str:
    """Bind the captions of a page's body and return it serialised."""
    root = parse(f"<body>{body}</body>")
    assert root is not None
    bind_captions([root], (), BASE)
    return lxml.html.tostring(root, encoding="unicode")


def test_a_box_of_one_image_and_its_named_caption_becomes_a_figure() -> None:
    # WordPress's classic caption (wcxb-dev 0408): a div.wp-caption around a picture
    # and p.wp-caption-text, or a caption the image's aria-describedby names.
    classic = _bound(
        '<div class="wp-caption"><picture><img src="/a.jpg" alt=""></picture>'
        '<p class="wp-caption-text">Ivon Hitchens, Day\'s Rest, 1960</p></div>'
    )
    assert '<figure class="wp-caption"><picture>' in classic
    assert '<figcaption class="wp-caption-text">Ivon Hitchens' in classic
    described = _bound(
        '<div><a href="/a.jpg"><img src="/a.jpg" aria-describedby="c1"></a>'
        '<span id="c1">The weir at dawn</span></div>'
    )
    assert '<figcaption id="c1">The weir at dawn</figcaption></figure>' in described


@pytest.mark.parametrize(
    "body",
    [
        # no caption named so, a second image, text beside them, a caption of blocks
        '<div><img src="/a.jpg"><p>The weir at dawn</p></div>',
        '<div><img src="/a.jpg"><img src="/b.jpg"><p class="caption">Two</p></div>',
        '<div>Look: <img src="/a.jpg"><p class="caption">The weir</p></div>',
        '<div><img src="/a.jpg"><div class="caption"><h4>Ann</h4><p>Great service</p></div></div>',
        # inside a figure, in a list item, an image the view cannot show
        '<figure><div><img src="/a.jpg"><p class="caption">The weir</p></div></figure>',
        '<ul><li><img src="/a.jpg"><p class="caption">The weir</p></li></ul>',
        f'<div><img src="{PLACEHOLDER}"><p class="caption">The weir</p></div>',
    ],
)
def test_other_boxes_stay_as_they_are(body: str) -> None:
    assert "figcaption" not in _bound(body)


def test_a_placeholder_shows_the_photo_its_link_opens() -> None:
    # a3 Lazy Load (wcxb-dev 4068): the photo is named only by the lightbox link.
    root = parse(
        f'<body><a href="/uploads/watch.jpg?v=2"><img src="{PLACEHOLDER}" alt="A watch"></a>'
        f'<a href="/shop/watch"><img src="{PLACEHOLDER}" alt="Buy"></a></body>'
    )
    assert root is not None
    linked, shop = root.iter("img")
    scrub_image(linked, BASE)
    scrub_image(shop, BASE)
    assert linked.get("src") == "https://blog.example/uploads/watch.jpg?v=2"
    assert shop.tag != "img"  # a link to a page names no photo: the placeholder goes


def test_a_figcaption_beside_an_image_or_after_its_figure_is_bound() -> None:
    # Hearst (wcxb-dev 0050): the image and a div holding a figcaption, no figure;
    # talkandroid (0500): the figure closed before its figcaption.
    beside = _bound(
        '<div><img src="/a.jpg" alt="Beans"><div class="css-1"><figcaption>'
        "<span>Tanja Ivanova</span></figcaption></div></div>"
    )
    assert "<figure><img" in beside
    caption = '<figcaption class="css-1"><span><span>Tanja Ivanova</span></span></figcaption>'
    assert caption in beside
    after = _bound(
        '<div><figure class="post-media"><img src="/a.jpg" alt="A lamp"></figure> '
        "<figcaption>Image: Govee</figcaption> And the text.</div>"
    )
    assert '<figure class="post-media"><img src="/a.jpg" alt="A lamp"><figcaption>' in after
    assert "</figure>  And the text." in after  # the spaces before and after the caption
    # A figure that has its caption keeps it; another stays where it stood.
    kept = _bound(
        '<div><figure><img src="/a.jpg"><figcaption>A</figcaption></figure>'
        "<figcaption>B</figcaption></div>"
    )
    assert "</figure><figcaption>B</figcaption>" in kept


def test_a_figcaption_moved_into_its_figure_keeps_a_tail_of_control_characters() -> None:
    # The parser keeps a U+0003, which lxml refuses from its API.
    root = parse(
        None, utf8=b"<div><figure><img src=a.jpg></figure><figcaption>A</figcaption>x\x03y</div>"
    )
    assert root is not None
    adopt_captions(root)
    figure = root.find(".//figure")
    assert figure is not None and figure.find("figcaption") is not None
    assert figure.tail == "xy"


def test_a_blurred_preview_is_a_placeholder_only_beside_an_alternative() -> None:
    # wcxb-dev 0108: Wix draws a 49-pixel blurred copy and names the full image in
    # data-pin-media; "fill=blur" blurs a whole image's margins and is the image.
    wix = "https://static.wixstatic.com/media/a~mv2.png/v1/fill/w_49,h_32,q_85,blur_2,enc_avif/a.png"
    assert is_placeholder(wix, has_alternative=True)
    assert not is_placeholder(wix)
    assert is_placeholder("https://cdn.example/a.jpg?width=1200&blur=70&q=20", has_alternative=True)
    filled = "https://img.example/files/a.png?auto=format&fit=fill&fill=blur&q=45"
    assert not is_placeholder(filled, has_alternative=True)
