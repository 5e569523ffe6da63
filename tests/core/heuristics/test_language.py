"""Tests for addon.core.heuristics.language."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.heuristics.language import detect_language

SPANISH = (
    "La ciudad de Valencia celebró ayer la apertura de un nuevo parque junto al río. Miles de "
    "vecinos recorrieron los senderos, que atraviesan jardines, huertos y zonas de juego para "
    "los niños. El alcalde explicó que el proyecto ha tardado más de diez años en completarse "
    "y que ha costado cerca de veinte millones de euros. Los responsables esperan que el parque "
    "se convierta en un lugar de encuentro para todas las familias de la zona."
)
CHINESE = (
    "昨天，这座城市在河边开放了一个新的公园。成千上万的居民沿着小路散步，小路穿过花园、菜地和儿童"
    "游乐区。市长表示，这个项目花了十多年才完成，总共投入了大约两千万欧元。负责人希望公园能成为附近"
    "所有家庭聚会的地方。"
)
ENGLISH = (
    "The city of Valencia opened a new park beside the river yesterday. Thousands of residents "
    "walked the paths, which cross gardens, vegetable plots and play areas for children. The "
    "mayor said the project had taken more than ten years to finish and had cost about twenty "
    "million euros. Its organisers hope the park will become a meeting place for every family."
)
HEBREW = (
    "העירייה פתחה אתמול פארק חדש לצד הנהר. אלפי תושבים טיילו בשבילים שחוצים גינות, ערוגות "
    "ומגרשי משחקים לילדים. ראש העיר אמר שהפרויקט נמשך יותר מעשר שנים ועלה כעשרים מיליון אירו."
)
_TAG = re.compile(r"[a-z]{2,3}")


def test_spanish_text() -> None:
    assert detect_language(SPANISH) == "es"


def test_chinese_text() -> None:
    assert detect_language(CHINESE) == "zh"


def test_english_text() -> None:
    assert detect_language(ENGLISH) == "en"


def test_legacy_codes_become_bcp47() -> None:
    # CLD2 names Hebrew by its withdrawn ISO 639 code "iw".
    assert detect_language(HEBREW) == "he"


def test_short_text_stays_undetermined() -> None:
    assert detect_language("") is None
    assert detect_language("Hola, ¿qué tal estás hoy?") is None
    assert detect_language(SPANISH[:120]) is None
    assert detect_language(SPANISH[:120], min_bytes=100) == "es"


def test_mixed_text_stays_undetermined() -> None:
    assert detect_language(f"{SPANISH}\n\n{ENGLISH}") is None
    assert detect_language(f"{ENGLISH}\n\n{CHINESE}") is None
    assert detect_language(f"{SPANISH}\n\n{ENGLISH}", min_share=50) == "es"


def test_only_the_sample_is_read() -> None:
    text = f"{SPANISH} {ENGLISH * 5}"
    assert detect_language(text) == "en"
    assert detect_language(text, max_chars=len(SPANISH)) == "es"


def test_digits_and_symbols_alone_stay_undetermined() -> None:
    assert detect_language("2024-05-01 12:30 — 45 € / 17 % · © ® ™ " * 30) is None


def test_characters_cld2_refuses_are_read_as_spaces() -> None:
    # C0 and C1 controls, noncharacters and lone surrogates: CLD2 raises on each.
    noise = "\x00\x0b\x1f\x7f\x85\x9f\ufdd0\ufffe\uffff\U0001fffe\U0010ffff\ud800"
    assert detect_language(noise.join(SPANISH.split(" "))) == "es"


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=400))
def test_any_text_gives_a_primary_tag_or_none(text: str) -> None:
    found = detect_language(text, min_bytes=0, min_share=0)
    assert found is None or _TAG.fullmatch(found)
