"""A Parquet file's row groups and the decoded size each page declares, read from the footer and page headers.

Arrow decodes a page whole, into a buffer of the size its header declares,
before any row of it can be looked at: a 9 KB table whose one page
declared 200 MB took 1.74 GB to read. The footer gives only a column
chunk's total, which a hostile file need not tell truly and an honest one
spreads over many small pages. So `largest_page` walks the page headers
themselves and gives the largest size declared, for the reader to refuse a
row group before Arrow decodes it. Where the pages are comes from the
footer, read here too (`row_groups`): pyarrow's accessor of a column
chunk's metadata aborts the process on some malformed footers (a C++
exception it does not catch), so it is never called.

Both are Thrift's compact protocol, of which only the fields named here
are decoded; every other value is skipped with a seek. A footer or header
that cannot be read is `BadPages`.
"""

from __future__ import annotations

from typing import IO, Any, NamedTuple

_DEPTH = 16  # structs and lists nested in a footer or page header (the format nests 7 deep)
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)
_NAME = 1024  # bytes of a column's name decoded at most (a longer one matches no column read)
# Page headers walked in one column chunk at most: writers make pages of kilobytes to megabytes, but
# a hostile chunk of 100 MB in 5-byte headers of empty pages would be 20 million reads.
_PAGES = 100_000
# What is decoded: FileMetaData.row_groups (4): RowGroup.columns (1) and num_rows (3); ColumnChunk.meta_data
# (3): path_in_schema (3), total_compressed_size (7), data_page_offset (9), dictionary_page_offset (11).
_FOOTER: dict[int, object] = {4: [{1: [{3: {3: [bytes], 7: int, 9: int, 11: int}}], 3: int}]}
_PAGE: dict[int, object] = {2: int, 3: int}  # PageHeader: uncompressed_page_size, compressed_page_size


class BadPages(Exception):
    """A footer or page header that cannot be read, or pages outside the file."""


class Group(NamedTuple):
    """A row group: its rows, and where the pages of each column read are (None: a chunk without metadata)."""

    rows: int
    chunks: tuple[tuple[int, int], ...] | None


def row_groups(stream: IO[bytes], size: int, names: tuple[str, ...]) -> list[Group]:
    """The row groups of the Parquet file `stream` (`size` bytes), with the pages of the columns `names`."""
    if size < 12:
        raise BadPages("a file too short for a Parquet footer")
    stream.seek(size - 8)
    tail = stream.read(8)
    length = int.from_bytes(tail[:4], "little")
    if tail[4:] != b"PAR1" or not 0 < length <= size - 12:
        raise BadPages("no Parquet footer at the end of the file")
    footer = _Compact(stream, size - 8 - length, size - 8).read(_STRUCT, _FOOTER, 0)
    groups = []
    for group in footer.get(4, []):
        metas = [chunk.get(3) for chunk in group.get(1, [])]
        # A chunk without metadata (encrypted, or never written) cannot be read by Arrow either.
        whole = all(meta is not None and {7, 9} <= meta.keys() for meta in metas)
        chunks = [
            (start, start + meta[7])  # the pages, headers included
            for meta in metas
            if whole and (meta.get(3) or [b""])[0].decode("utf-8", "replace") in names
            for start in [min(meta[9], meta.get(11) or meta[9])]  # the dictionary page comes first
        ]
        groups.append(Group(group.get(3, 0), tuple(chunks) if whole else None))
    return groups


def largest_page(stream: IO[bytes], start: int, end: int, size: int) -> int:
    """The largest decoded size declared by a page of the chunk at `start` to `end` of a file of `size` bytes."""
    if not 0 <= start <= end <= size:
        raise BadPages(f"a column chunk at bytes {start:,} to {end:,} of a file of {size:,}")
    reader = _Compact(stream, start, size)
    largest = pages = 0
    while reader.at < end:
        pages += 1
        if pages > _PAGES:
            raise BadPages(f"more than {_PAGES:,} pages in a column chunk")
        sizes = reader.read(_STRUCT, _PAGE, 0)
        uncompressed, compressed = sizes.get(2, -1), sizes.get(3, -1)
        if min(uncompressed, compressed) < 0:
            raise BadPages("a page header without its sizes")
        largest = max(largest, uncompressed)
        reader.skip(compressed)  # the last page's data may run past `end`: old writers counted it so
    return largest


class _Compact:
    """Thrift's compact protocol from `stream` at `at`, never past `size`: values a shape names, the rest skipped."""

    def __init__(self, stream: IO[bytes], at: int, size: int) -> None:
        self.stream, self.at, self.size = stream, at, size
        stream.seek(at)

    def byte(self) -> int:
        got = self.stream.read(1)
        if not got:
            raise BadPages("the file ends inside a footer or page header")
        self.at += 1
        return got[0]

    def varint(self) -> int:
        value = shift = 0
        while (byte := self.byte()) & 0x80:
            value |= (byte & 0x7F) << shift
            shift += 7
            if shift > 63:
                raise BadPages("a number of more than 64 bits in a footer or page header")
        return value | byte << shift

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def skip(self, count: int) -> None:
        if not 0 <= count <= self.size - self.at:
            raise BadPages(f"a value of {count:,} bytes where {self.size - self.at:,} are left")
        self.at += count
        self.stream.seek(self.at)

    def read(self, kind: int, shape: object, depth: int) -> Any:
        """A value of type `kind` decoded as `shape` says: a dict (a struct's fields by id, those it names),
        a one-element list (a list's elements), `int` or `bytes`; any other field is skipped."""
        if depth > _DEPTH:
            raise BadPages("a footer or page header nested too deep")
        if kind == _STRUCT and isinstance(shape, dict):
            found: dict[int, object] = {}
            field = 0
            while (head := self.byte()) & 0x0F != _STOP:
                kind, delta = head & 0x0F, head >> 4
                field = field + delta if delta else self.zigzag()
                if kind in (_TRUE, _FALSE):  # a boolean field's value is its type
                    continue
                if field in shape:
                    found[field] = self.read(kind, shape[field], depth + 1)
                else:
                    self.value(kind, depth + 1)
            return found
        if kind in (_LIST, _SET) and isinstance(shape, list):
            element, count = self.list_head()
            return [self.read(element, shape[0], depth + 1) for _ in range(count)]
        if kind in (_I16, _I32, _I64) and shape is int:
            return self.zigzag()
        if kind == _BINARY and shape is bytes:
            length = self.varint()
            if length > _NAME:
                self.skip(length)
                return b""
            got = self.stream.read(length)
            if len(got) < length:
                raise BadPages("the file ends inside a footer or page header")
            self.at += length
            return got
        raise BadPages(f"a value of type {kind} where the format has another")

    def list_head(self) -> tuple[int, int]:
        """A list's element type and count."""
        head = self.byte()
        return head & 0x0F, self.varint() if head >> 4 == 15 else head >> 4

    def value(self, kind: int, depth: int) -> None:
        """Skip a value of type `kind`."""
        if depth > _DEPTH:
            raise BadPages("a footer or page header nested too deep")
        if kind in (_TRUE, _FALSE, _BYTE):  # in a list or map, a boolean is a byte
            self.skip(1)
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind == _DOUBLE:
            self.skip(8)
        elif kind == _BINARY:
            self.skip(self.varint())
        elif kind in (_LIST, _SET):
            element, count = self.list_head()
            for _ in range(count):  # every element is a byte at least: the file's size bounds the loop
                self.value(element, depth + 1)
        elif kind == _MAP:
            count = self.varint()
            types = self.byte() if count else 0
            for _ in range(count):
                self.value(types >> 4, depth + 1)
                self.value(types & 0x0F, depth + 1)
        elif kind == _STRUCT:
            self.read(_STRUCT, {}, depth + 1)
        else:
            raise BadPages(f"a value of unknown type {kind} in a footer or page header")
