"""The documentation's links lead somewhere: every relative link names a file of the project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "bench" / "results").glob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(page: Path) -> list[str]:
    """The relative links of a Markdown page (outside code blocks) that name no file."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"[a-z]+:", target)
        and not target.startswith("#")
        and not (page.parent / target.split("#")[0]).exists()
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_names_a_file(page: Path) -> None:
    assert not broken_links(page)


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "see [this](missing.md), [that](page.md#top), [here](#top), [there](https://example.org/x)\n"
        "```\n[not a link](inside.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["missing.md"]
