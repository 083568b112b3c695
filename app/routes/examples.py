"""`GET /api/examples` and `GET /api/rules`: what the page offers besides the editor.

Examples are programs that teach (the article's neuron, a fork, `a + a`...); rules
are the engine's own source of each primitive, which the page's code panel shows
next to the backward step that runs it.
"""

from __future__ import annotations

from fastapi import APIRouter

from backprop_animator.app.schemas import Example
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.rules import rule_sources

router = APIRouter(prefix="/api", tags=["examples"])


@router.get("/examples", response_model=list[Example], response_model_exclude_none=True)
async def read_examples() -> list[Example]:
    """Programs to start from, in the order the page lists them.

    Bug-lab examples carry `mistake`, others `sort_steps` or `gradcheck`: the options
    they are meant with (a page link adds them as `?mistake=…` and so on)."""
    return [Example.model_validate(example, from_attributes=True) for example in EXAMPLES]


@router.get("/rules", response_model=dict[str, str])
async def read_rules() -> dict[str, str]:
    """Op (`+`, `*`, `tanh`, `**`...) -> the engine's source of that primitive."""
    return rule_sources()
