from __future__ import annotations

import typing as t
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .console import Console


def send(request: Request, console: "Console", *, timeout: Optional[Timeout] = None) -> Response:
    limits: list[Limit] = []
    return transport(request, limits)


def parse(value: t.Any, into: models.URL | str | None = None) -> "dict[str, int]":
    return {}
