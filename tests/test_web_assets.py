"""The web table's shipped files: the interface's five translations hold the same keys, every
key the pages use exists, nothing is fetched from another site (no CDN), and the web table's
routes are in the service's OpenAPI."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bangarena.service import ServiceSettings, create_app
from bangarena.service.web import I18N_DIR, STATIC_DIR
from bangarena.service.web.pages import TEMPLATES

LANGS = ("en", "ru", "pt", "es", "fr")
KEY = re.compile(r"""\bt\(\s*["']([a-z_]+(?:\.[a-z_]+)+)["']""")
ATTR = re.compile(r'data-i18n(?:-aria|-title|-placeholder)?="([a-z_.]+)"')
DYNAMIC = re.compile(r"t\(`([a-z_]+(?:\.[a-z_]+)*)\.\$\{")


def _strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_every_language_has_every_key() -> None:
    en = _strings("en")
    for lang in LANGS:
        strings = _strings(lang)
        assert strings.keys() == en.keys(), lang
        assert all(isinstance(v, str) and v.strip() for v in strings.values()), lang
        for key, text in strings.items():  # the same {placeholders} in every language
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", en[key])), (
                lang, key,
            )  # fmt: skip


def test_every_key_the_pages_use_exists() -> None:
    en = _strings("en")
    files = [*STATIC_DIR.rglob("*.js"), *Path(TEMPLATES).glob("*.html")]
    used: set[str] = set()
    prefixes: set[str] = set()
    for f in files:
        text = f.read_text(encoding="utf-8")
        used |= set(KEY.findall(text)) | set(ATTR.findall(text))
        prefixes |= set(DYNAMIC.findall(text))
    assert used, "no interface keys found"
    assert sorted(k for k in used if k not in en) == []
    for prefix in prefixes:  # keys built at run time (mode.…, reason.…) have entries
        assert any(k.startswith(prefix + ".") for k in en), prefix


def test_nothing_comes_from_another_site() -> None:
    for f in [*STATIC_DIR.rglob("*"), *Path(TEMPLATES).glob("*.html")]:
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), f
            assert "@import url(http" not in text, f


def test_the_web_routes_are_in_the_openapi(tmp_path: Path) -> None:
    app = create_app(ServiceSettings(db_url=str(tmp_path / "x.db"), admin_token="t" * 32))
    paths = app.openapi()["paths"]
    for path in (
        "/web/v1/play", "/web/v1/watch", "/web/v1/rooms", "/web/v1/rooms/{code}/join",
        "/web/v1/rooms/{code}/fill", "/web/v1/rooms/{code}/chairs/{chair}",
        "/web/v1/rooms/{code}/chairs/{chair}/hand", "/web/v1/rooms/{code}/speed",
        "/web/v1/tables/{match_id}/signals", "/web/v1/tables/{match_id}/stream",
        "/web/v1/tables/{match_id}/summary",
    ):  # fmt: skip
        assert path in paths, path
    assert "/table/{match_id}" not in paths  # pages are not API


def test_the_leak_check_finds_what_a_seat_may_not_know() -> None:
    """The check the browser tests run on a page's traffic flags each kind of hidden
    information (so a leak would fail them), and passes what a seat may see."""
    from web_table_support import hidden_fields_of_others

    leaks = [
        {"kind": "drew", "seat": 2, "source": "deck", "cards": ["shot_01"]},
        {"kind": "role_dealt", "seat": 1, "role": "outlaw"},
        {"kind": "looked", "seat": 3, "cards": ["jail_01"]},
        {"kind": "put_back", "seat": 3, "card": "jail_01"},
        {"kind": "stole", "seat": 2, "victim": 3, "from_hand": True, "card": "shot_02"},
        {"seat": 0, "hand": [], "over": False,
         "players": [{"seat": 1, "role": "deputy", "revealed": False}]},
        {"deck": ["shot_03"]},
    ]  # fmt: skip
    for leak in leaks:
        assert hidden_fields_of_others([leak], 0), leak
    fine = [
        {"kind": "drew", "seat": 0, "source": "deck", "cards": ["shot_01"]},
        {"kind": "drew", "seat": 2, "source": "discard", "cards": ["shot_04"]},
        {"kind": "stole", "seat": 2, "victim": 0, "from_hand": True, "card": "shot_02"},
        {"kind": "stole", "seat": 2, "victim": 3, "from_hand": False, "card": "cover_01"},
        {"seat": 0, "hand": ["shot_05"], "over": False,
         "players": [{"seat": 1, "role": "sheriff", "revealed": True}]},
    ]  # fmt: skip
    assert hidden_fields_of_others(fine, 0) == []
