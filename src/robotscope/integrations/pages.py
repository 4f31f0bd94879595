"""The decoded size each page of a Parquet column chunk declares, read from its page headers.

Arrow decodes a page whole, into a buffer of the size its header declares,
before any row of it can be looked at: a 14 KB table whose one page
declared 400 MB took 2.9 GB to read. The file's footer gives only a column
chunk's total, which a hostile file need not tell truly and an honest one
spreads over many small pages. So `largest_page` walks the page headers
themselves (Thrift's compact protocol, of which a page header needs only
the part read here) and gives the largest size declared, for the reader to
refuse a row group before Arrow decodes it. Headers are read a few bytes at
a time and every value they hold is skipped with a seek: the walk holds
nothing, and a header that cannot be read is `BadPages`.
"""

from __future__ import annotations

from typing import IO, Protocol

_DEPTH = 8  # structs and lists nested in a page header (the format nests 3 deep)
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)
_UNCOMPRESSED, _COMPRESSED = 2, 3  # PageHeader's fields: uncompressed_page_size, compressed_page_size


class BadPages(Exception):
    """A page header that cannot be read, or a page that leaves its column chunk."""


class Chunk(Protocol):
    """What `largest_page` needs of pyarrow's ColumnChunkMetaData."""

    @property
    def has_dictionary_page(self) -> bool: ...
    @property
    def dictionary_page_offset(self) -> int | None: ...
    @property
    def data_page_offset(self) -> int: ...
    @property
    def total_compressed_size(self) -> int: ...


def largest_page(stream: IO[bytes], chunk: Chunk, size: int) -> int:
    """The largest decoded size a page of `chunk` declares (`size`: the file's); `BadPages` if unreadable."""
    start = chunk.data_page_offset
    if chunk.has_dictionary_page and chunk.dictionary_page_offset:
        start = min(start, chunk.dictionary_page_offset)
    end = start + chunk.total_compressed_size  # the pages, headers included
    if not 0 <= start <= end <= size:
        raise BadPages(f"a column chunk at bytes {start:,} to {end:,} of a file of {size:,}")
    reader = _Compact(stream, start, size)
    largest = 0
    while reader.at < end:
        sizes = {_UNCOMPRESSED: -1, _COMPRESSED: -1}
        reader.struct(0, sizes)
        if min(sizes.values()) < 0:
            raise BadPages("a page header without its sizes")
        largest = max(largest, sizes[_UNCOMPRESSED])
        reader.skip(sizes[_COMPRESSED])
    return largest


class _Compact:
    """Thrift's compact protocol read from `stream` at `at`, never past `size`; values are skipped, not kept."""

    def __init__(self, stream: IO[bytes], at: int, size: int) -> None:
        self.stream, self.at, self.size = stream, at, size
        stream.seek(at)

    def byte(self) -> int:
        got = self.stream.read(1)
        if not got:
            raise BadPages("the file ends inside a page header")
        self.at += 1
        return got[0]

    def varint(self) -> int:
        value = shift = 0
        while (byte := self.byte()) & 0x80:
            value |= (byte & 0x7F) << shift
            shift += 7
            if shift > 63:
                raise BadPages("a number of more than 64 bits in a page header")
        return value | byte << shift

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def skip(self, count: int) -> None:
        if not 0 <= count <= self.size - self.at:
            raise BadPages(f"a value of {count:,} bytes where {self.size - self.at:,} are left")
        self.at += count
        self.stream.seek(self.at)

    def struct(self, depth: int, wanted: dict[int, int] | None = None) -> None:
        """Skip a struct; the integers of the fields `wanted` names are stored there."""
        if depth > _DEPTH:
            raise BadPages("page header nested too deep")
        field = 0
        while (head := self.byte()) & 0x0F != _STOP:
            kind, delta = head & 0x0F, head >> 4
            field = field + delta if delta else self.zigzag()
            if wanted is not None and field in wanted and kind == _I32:
                wanted[field] = self.zigzag()
            elif kind not in (_TRUE, _FALSE):  # a boolean field's value is its type
                self.value(kind, depth)

    def value(self, kind: int, depth: int) -> None:
        if kind in (_TRUE, _FALSE, _BYTE):  # in a list or map, a boolean is a byte
            self.skip(1)
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind == _DOUBLE:
            self.skip(8)
        elif kind == _BINARY:
            self.skip(self.varint())
        elif kind in (_LIST, _SET):
            head = self.byte()
            count = self.varint() if head >> 4 == 15 else head >> 4
            for _ in range(count):  # every element is a byte at least: the file's size bounds the loop
                self.value(head & 0x0F, depth + 1)
        elif kind == _MAP:
            count = self.varint()
            types = self.byte() if count else 0
            for _ in range(count):
                self.value(types >> 4, depth + 1)
                self.value(types & 0x0F, depth + 1)
        elif kind == _STRUCT:
            self.struct(depth + 1)
        else:
            raise BadPages(f"a value of unknown type {kind} in a page header")
