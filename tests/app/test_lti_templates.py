"""The LTI tool's pages (templates/lti_*.html), rendered alone with Jinja.

What the server's routes pass is the context below; these tests check what the browser
and the tests of the pages find in them (testids), that a hostile program cannot close
the JSON block the scripts read, and that nothing needs the inline script or inline
style the CSP refuses (app/security.py).
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.templating import Jinja2Templates

from backprop_animator.app.paths import find_asset_dir
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.lab.mistakes import MISTAKES

templates = Jinja2Templates(directory=find_asset_dir("templates"))
HOSTILE = 'a = 1 # </script><script>alert("x")</script> & \' <!--'
EXAMPLE_ITEMS = [
    {
        "key": example.id,
        "title": example.title,
        "source": example.source,
        "mistake": example.mistake,
        "sort_steps": bool(example.sort_steps),
        "gradcheck": bool(example.gradcheck),
    }
    for example in EXAMPLES
]


def launch(**changes: Any) -> dict[str, Any]:
    base = {
        "id": "launch-1",
        "search": "?source=a+%2B+a&quiz=1&mistake=assign&controls=-code",
        "grading": True,
        "score_url": "/lti/score",
        "instructor": False,
        "note": None,
    }
    return base | changes


def picker_context(**changes: Any) -> dict[str, Any]:
    base = {
        "session": "sess-123",
        "examples": EXAMPLE_ITEMS,
        "values": {},
        "error": None,
        "return_host": "canvas.school.edu",
        "context_title": "Deep Learning 101",
    }
    return base | changes


def render(name: str, **context: Any) -> str:
    return templates.get_template(name).render(version="9.9.9", **context)


class Page(HTMLParser):
    """Every start tag with its attributes, and each script's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict[str, str | None] | None = None
        self._text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script, self._text = dict(attrs), []

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None

    def testids(self) -> dict[str, dict[str, str | None]]:
        return {a["data-testid"] or "": a for _, a in self.tags if "data-testid" in a}

    def by_name(self, name: str) -> list[tuple[str, dict[str, str | None]]]:
        return [(tag, a) for tag, a in self.tags if a.get("name") == name]

    def shown(self) -> dict[str | None, bool]:
        """The `show` boxes: part -> ticked."""
        boxes = [a for _, a in self.by_name("show") if a.get("type") == "checkbox"]
        return {a["value"]: "checked" in a for a in boxes}

    def entries(self) -> list[str | None]:
        return [attrs["src"] for attrs, _ in self.scripts if attrs.get("src")]

    def json_block(self, element_id: str) -> Any:
        for attrs, text in self.scripts:
            if attrs.get("id") == element_id:
                assert attrs.get("type") == "application/json"
                return json.loads(text)
        raise AssertionError(f"no JSON block #{element_id}")


def assert_csp_clean(page: Page) -> None:
    """No inline style attribute or handler, and every script is a file or JSON data."""
    for tag, attrs in page.tags:
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
    assert not [tag for tag, _ in page.tags if tag == "style"]
    for attrs, text in page.scripts:
        if attrs.get("type") == "application/json":
            assert "src" not in attrs
        else:
            assert attrs.get("type") == "module" and attrs.get("src"), attrs
            assert attrs["src"].startswith("/static/js/") and text.strip() == ""


ALL_PAGES = {
    "lti_play.html": {"launch": launch()},
    "lti_picker.html": picker_context(),
    "lti_return.html": {
        "return_url": "https://canvas.school.edu/deep_link",
        "jwt": "a.b.c",
        "title": "Week 3",
    },
    "lti_error.html": {"status": 400, "title": "Launch refused", "message": "Expired."},
}


@pytest.mark.parametrize("name", sorted(ALL_PAGES))
def test_every_page_keeps_to_the_csp_and_is_versioned(name: str) -> None:
    text = render(name, **ALL_PAGES[name])
    page = Page(text)

    assert_csp_clean(page)
    assert text.lstrip().lower().startswith("<!doctype html>")
    stylesheets = [
        a["href"] or "" for tag, a in page.tags if tag == "link" and a.get("rel") == "stylesheet"
    ]
    assert "/static/css/lti.css?v=9.9.9" in stylesheets
    assert all(href.endswith("?v=9.9.9") for href in stylesheets)
    assert ("html", {"lang": "en"}) in page.tags


def test_the_player_has_the_embed_markup_and_its_own_entry() -> None:
    page = Page(render("lti_play.html", launch=launch()))
    ids = page.testids()

    assert page.entries() == ["/static/js/lti-play.js?v=9.9.9"]
    assert {"error", "lti-grade-status"} <= set(ids)
    assert (
        "section",
        {
            "id": "player",
            "class": "player-host",
            "aria-label": "backprop-animator player",
            "tabindex": "-1",
        },
    ) in page.tags
    assert ("template", {"id": "embed-editor"}) in page.tags
    status = ids["lti-grade-status"]
    assert status["role"] == "status" and status["aria-live"] == "polite"
    assert page.json_block("lti-launch") == launch()


def test_a_learner_reads_that_answers_go_to_the_course() -> None:
    text = render("lti_play.html", launch=launch())

    assert "sent to the course" in text
    assert "lti-note" not in text
    assert "<title>backprop-animator</title>" in text


def test_the_player_is_titled_by_the_activity() -> None:
    text = render("lti_play.html", launch=launch(title="Week <3>"))

    assert "<title>Week &lt;3&gt; · backprop-animator</title>" in text


def test_an_instructor_sees_the_note_of_a_launch_without_grades() -> None:
    note = "This link has no grade service: answers are not sent to a gradebook."
    text = render("lti_play.html", launch=launch(grading=False, instructor=True, note=note))
    ids = Page(text).testids()

    assert "lti-note" in ids and html.escape(note) in text
    assert "lti-grade-status" not in ids
    assert "sent to the course as you" not in text


def test_a_learner_does_not_see_the_instructors_note() -> None:
    text = render("lti_play.html", launch=launch(grading=False, note="For instructors."))

    assert "For instructors." not in text.split('id="lti-launch"')[0]


def test_a_hostile_program_cannot_close_the_launch_block() -> None:
    search = "?source=" + HOSTILE
    text = render("lti_play.html", launch=launch(search=search, note=HOSTILE, instructor=True))
    page = Page(text)

    assert page.json_block("lti-launch")["search"] == search
    assert len([a for a, _ in page.scripts if a.get("id") == "lti-launch"]) == 1
    assert "</script><script>alert" not in text
    assert page.entries() == ["/static/js/lti-play.js?v=9.9.9"]


def test_the_picker_has_every_field_with_defaults() -> None:
    text = render("lti_picker.html", **picker_context())
    page = Page(text)
    ids = page.testids()

    assert {
        "picker-example",
        "picker-source",
        "picker-title",
        "picker-quiz",
        "picker-mistake",
        "picker-submit",
        "picker-preview",
    } <= set(ids)
    assert "picker-error" not in ids
    form = next(a for tag, a in page.tags if tag == "form")
    assert form["method"] == "post" and form["action"] == "/lti/deep-link"
    assert page.by_name("session") == [
        ("input", {"type": "hidden", "name": "session", "value": "sess-123"})
    ]
    assert "required" in ids["picker-source"] and ids["picker-source"]["name"] == "source"
    assert ids["picker-title"]["maxlength"] == "200" and "required" in ids["picker-title"]
    assert "checked" in ids["picker-quiz"] and ids["picker-quiz"]["value"] == "1"
    assert "graded" in text.lower()
    assert page.shown() == {"editor": False, "code": True, "narration": True}
    # Sent even with no box ticked, so the server can tell "none" from "the defaults".
    assert ("input", {"type": "hidden", "name": "show", "value": ""}) in page.by_name("show")
    for name in ("sort_steps", "gradcheck"):
        [(_, box)] = page.by_name(name)
        assert box["type"] == "checkbox" and "checked" not in box
    assert ids["picker-submit"]["type"] == "submit"
    assert "Add to course" in text
    assert "Adds the activity to <strong>canvas.school.edu</strong>" in text
    assert "Deep Learning 101" in text
    assert ids["picker-preview"].get("title")


def test_the_picker_offers_each_example_and_each_mistake_and_granularity() -> None:
    text = render("lti_picker.html", **picker_context())
    options = re.findall(r'<option value="([^"]*)"', text)

    keys = [example["key"] for example in EXAMPLE_ITEMS]
    assert options[: len(keys) + 1] == ["", *keys]
    assert "Type your own" in text
    assert options[len(keys) + 1 :] == ["packed", "expanded", "", *MISTAKES]
    assert Page(text).json_block("picker-examples") == EXAMPLE_ITEMS


def test_the_picker_names_examples_by_the_apis_id_too() -> None:
    items = [{"id": "neuron", "title": "A tanh neuron", "source": "x = 1"}]
    text = render("lti_picker.html", **picker_context(examples=items))

    assert '<option value="neuron">A tanh neuron</option>' in text


def test_the_picker_refills_the_form_and_shows_the_error() -> None:
    values = {
        "session": "sess-123",
        "example": "mistake-assign",
        "source": "\nx = 1\ny = x +\n",
        "title": 'Week "3" <b>',
        "granularity": "expanded",
        "mistake": "no-sort",
        "sort_steps": "1",
        "gradcheck": "1",
        "show": ["editor"],
    }
    error = {"message": "invalid syntax <here>", "line": 3, "column": 7}
    text = render("lti_picker.html", **picker_context(values=values, error=error))
    page = Page(text)
    ids = page.testids()

    assert "picker-error" in ids and ids["picker-error"]["role"] == "alert"
    assert "Line 3, column 7" in text and "invalid syntax &lt;here&gt;" in text
    assert ids["picker-error"]["data-line"] == "3" and ids["picker-error"]["data-column"] == "7"
    assert ids["picker-source"]["aria-invalid"] == "true"
    assert "picker-error" in (ids["picker-source"]["aria-describedby"] or "")
    # The textarea keeps the program's first newline: the parser drops only the one after the tag.
    assert re.search(r'data-testid="picker-source"[^>]*>\n\nx = 1\ny = x \+\n</textarea>', text)
    assert ids["picker-title"]["value"] == 'Week "3" <b>'
    assert "checked" not in ids["picker-quiz"]
    assert page.shown() == {"editor": True, "code": False, "narration": False}
    for name in ("sort_steps", "gradcheck"):
        assert "checked" in page.by_name(name)[0][1]
    selected = re.findall(r'<option value="([^"]*)" selected>', text)
    assert selected == ["mistake-assign", "expanded", "no-sort"]


def test_the_picker_shows_an_error_without_a_place() -> None:
    error = {"message": "The course refused the session.", "line": None, "column": None}
    text = render(
        "lti_picker.html", **picker_context(values={"quiz": "1", "show": "code"}, error=error)
    )
    page = Page(text)
    ids = page.testids()

    assert "The course refused the session." in text and "Line " not in text
    assert "aria-invalid" not in ids["picker-source"]
    assert "checked" in ids["picker-quiz"]
    assert page.shown() == {"editor": False, "code": True, "narration": False}


@pytest.mark.parametrize(
    ("show", "expected"),
    [
        ("", set()),
        ("narration editor", {"narration", "editor"}),
        (["code"], {"code"}),
        (None, {"code", "narration"}),
    ],
)
def test_the_picker_refills_the_parts_shown_as_the_server_sends_them(
    show: Any, expected: set[str]
) -> None:
    """`show` comes back as the server read it: a list, the parts joined by spaces, or
    None when the form had none (the defaults)."""
    values = {"source": "a + a", "title": "t", "quiz": "", "show": show}
    page = Page(render("lti_picker.html", **picker_context(values=values)))

    assert {part for part, ticked in page.shown().items() if ticked} == expected
    assert "checked" not in page.testids()["picker-quiz"]


def test_the_picker_escapes_a_hostile_example() -> None:
    items = [{"key": "x", "title": HOSTILE, "source": HOSTILE}]
    text = render("lti_picker.html", **picker_context(examples=items, context_title=HOSTILE))
    page = Page(text)

    assert page.json_block("picker-examples") == items
    assert "</script><script>alert" not in text
    assert_csp_clean(page)


def test_the_return_posts_the_jwt_to_the_course() -> None:
    url = "https://canvas.school.edu/api/lti/deep_linking?x=1&y=2"
    text = render("lti_return.html", return_url=url, jwt="eyJ.abc.def", title="Week <3>")
    page = Page(text)
    ids = page.testids()

    form = next(a for tag, a in page.tags if tag == "form")
    assert form["method"] == "post" and form["action"] == url
    assert page.by_name("JWT") == [
        ("input", {"type": "hidden", "name": "JWT", "value": "eyJ.abc.def"})
    ]
    assert ids["lti-return"]["type"] == "submit" and "Return to the course" in text
    assert "Week &lt;3&gt;" in text
    assert page.entries() == ["/static/js/lti-return.js?v=9.9.9"]


def test_the_error_page_says_what_went_wrong_without_scripts() -> None:
    text = render(
        "lti_error.html", status=401, title="Launch refused", message="The <token> expired."
    )
    page = Page(text)

    assert "lti-error" in page.testids()
    assert "Launch refused" in text and "The &lt;token&gt; expired." in text and "401" in text
    assert page.scripts == []


@pytest.mark.parametrize("name", ["index.html", "embed.html"])
def test_the_other_pages_still_load_their_entry(name: str) -> None:
    page = Page(render(name))
    entry = {"index.html": "page.js", "embed.html": "embed-page.js"}[name]

    assert page.entries() == [f"/static/js/{entry}?v=9.9.9"]
    assert "/static/css/lti.css?v=9.9.9" not in render(name)
