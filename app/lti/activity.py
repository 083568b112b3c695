"""An activity: the program a teacher deep-linked and the player's options, and how a
learner's quiz answers are graded.

A Deep Linking response carries the activity in its resource link's custom parameters
(strings, as LTI wants them) and the tool keeps it under an id as well, so a launch
finds the program either way: by `activity` from the tool's database, or, for a link a
teacher wrote by hand in the LMS, from `source` and the option parameters.

The quiz's questions are the trace's `+=` in order (SPEC §10, quiz-state.js): question
k's right answer is the `after` of the k-th contribution of the backward frames. An
answer is right within 1e-2 relative or 5e-3 absolute, as on the page.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlencode

from backprop_animator.engine.lab.mistakes import MISTAKES

GRANULARITIES = ("packed", "expanded")
PARTS = ("editor", "code", "narration")
HIDDEN_BY_DEFAULT = ("editor",)
MAX_TITLE = 200
RELATIVE_TOLERANCE = 1e-2
ABSOLUTE_TOLERANCE = 5e-3


def _yes(value: object) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Activity:
    source: str
    title: str = "Backpropagation, step by step"
    granularity: str = "packed"
    quiz: bool = True
    mistake: str | None = None
    sort_steps: bool = False
    gradcheck: bool = False
    hide: tuple[str, ...] = field(default=HIDDEN_BY_DEFAULT)

    def __post_init__(self) -> None:
        if not self.source.strip():
            raise ValueError("The program is empty.")
        if self.granularity not in GRANULARITIES:
            raise ValueError(f"granularity must be one of {', '.join(GRANULARITIES)}")
        if self.mistake is not None and self.mistake not in MISTAKES:
            raise ValueError(f"mistake must be one of {', '.join(MISTAKES)}")
        unknown = [part for part in self.hide if part not in PARTS]
        if unknown:
            raise ValueError(f"the player has no part {unknown[0]!r} to hide")
        if not self.title.strip() or len(self.title) > MAX_TITLE:
            raise ValueError(f"The title must be 1 to {MAX_TITLE} characters.")

    # What the platform keeps (custom parameters are strings) and gives back on launch.
    def custom(self, activity_id: str) -> dict[str, str]:
        custom = {
            "activity": activity_id,
            "source": self.source,
            "granularity": self.granularity,
            "quiz": "1" if self.quiz else "0",
            "controls": self.controls(),
        }
        if self.mistake:
            custom["mistake"] = self.mistake
        if self.sort_steps:
            custom["sort_steps"] = "1"
        if self.gradcheck:
            custom["gradcheck"] = "1"
        return custom

    @classmethod
    def from_custom(cls, custom: dict[str, Any], title: str | None) -> Activity:
        """The activity a link's custom parameters describe (ValueError if none)."""
        source = custom.get("source")
        if not isinstance(source, str):
            raise ValueError("The link carries no program (custom parameter `source`).")
        mistake = custom.get("mistake") or None
        return cls(
            source=source,
            title=(title or cls.title)[:MAX_TITLE] or cls.title,
            granularity=str(custom.get("granularity") or "packed"),
            quiz=_yes(custom.get("quiz", "1")),
            mistake=None if mistake is None else str(mistake),
            sort_steps=_yes(custom.get("sort_steps", "0")),
            gradcheck=_yes(custom.get("gradcheck", "0")),
            hide=hidden_parts(str(custom.get("controls") or "")),
        )

    def controls(self) -> str:
        """embed-options.js's `controls`: the parts shown or hidden unlike the default."""
        changes = [
            f"-{part}" if part in self.hide else part
            for part in PARTS
            if (part in self.hide) != (part in HIDDEN_BY_DEFAULT)
        ]
        return ",".join(changes)

    def search(self) -> str:
        """The player's query string, as /embed reads it (from its first frame)."""
        params: list[tuple[str, str]] = [("source", self.source)]
        if self.granularity != "packed":
            params.append(("granularity", self.granularity))
        if self.quiz:
            params.append(("quiz", "1"))
        if self.mistake:
            params.append(("mistake", self.mistake))
        if self.sort_steps:
            params.append(("sort_steps", "1"))
        if self.gradcheck:
            params.append(("gradcheck", "1"))
        if self.controls():
            params.append(("controls", self.controls()))
        return "?" + urlencode(params)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Activity:
        data = json.loads(text)
        data["hide"] = tuple(data.get("hide", HIDDEN_BY_DEFAULT))
        return cls(**data)


def hidden_parts(controls: str) -> tuple[str, ...]:
    """The parts hidden by a `controls` value (`-name` hides, `name` shows, `none`, `all`)."""
    hidden = set(HIDDEN_BY_DEFAULT)
    for item in (part.strip() for part in controls.split(",")):
        if item == "none":
            hidden = set(PARTS)
        elif item == "all":
            hidden = set()
        elif item.startswith("-") and item[1:] in PARTS:
            hidden.add(item[1:])
        elif item.lstrip("+") in PARTS:
            hidden.discard(item.lstrip("+"))
    return tuple(part for part in PARTS if part in hidden)


def expected_answers(trace: dict[str, Any]) -> list[float]:
    """Each quiz question's right answer, in the order the page asks them."""
    return [
        float(contribution["after"])
        for frame in trace["frames"]
        if frame.get("phase") == "backward"
        for contribution in frame.get("contributions") or ()
    ]


def is_right(answer: float | None, expected: float) -> bool:
    if answer is None or not math.isfinite(answer):
        return False
    if not math.isfinite(expected):
        return False
    difference = abs(answer - expected)
    return difference <= ABSOLUTE_TOLERANCE or difference <= RELATIVE_TOLERANCE * abs(expected)
