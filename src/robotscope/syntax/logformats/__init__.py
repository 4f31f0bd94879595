"""Server access logs in the formats people have, read line by line into `Request`s. Pure."""

from __future__ import annotations

from .model import BadLine, LineReader, Request

__all__ = ["BadLine", "LineReader", "Request"]
