"""A crawler's visits to an origin, cut into sessions: did it read robots.txt first, did it keep its Crawl-delay?

As Kim et al. (arXiv 2505.21733) cut them, a session ends after five
minutes without a request (`GAP`). For each (crawler, origin) a `Track`
holds a handful of numbers, never the requests: how many sessions began,
how many began with /robots.txt, and the gaps between consecutive requests
of a session, counted against the Crawl-delay in force for the later one.

Rate against Crawl-delay is measured by the gaps, not by requests per
minute: a gap shorter than the delay is a request sent too soon, and a
crawler whose *median* gap is below the delay (more than half its gaps
short) kept no delay at all. Counting short gaps gives that median
exactly without keeping the gaps; the shortest gap is kept too.

Input in order is the exact case. A log read in pieces (files one after
another, or `--jobs` chunks of one file) gives each piece its tracks, and
`Tracks.then` stitches the next piece's onto them in input order: a
session open at the end of one piece goes on into the next when the gap
is five minutes or less, so pieces give what one pass gives. A request
earlier than the one before it (Apache logs a request's start at its end)
is a gap of 0 when less than `GAP` earlier; further back, it starts a new
session: input unsorted by more than that is cut into more sessions than
it holds, the one approximation.

Memory: one `Track` per (crawler, origin) seen, at most `MAX_TRACKS`; past
that the tracks idle longest are closed (folded into the crawler's totals,
where the next piece can no longer stitch onto them) and counted in `cut`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

GAP = 300.0  # seconds without a request that end a session
MAX_TRACKS = 100_000  # (crawler, origin) pairs followed at once


@dataclass(slots=True)
class Totals:
    """One crawler's sessions, and its gaps under a Crawl-delay; merged by adding."""

    sessions: int = 0
    robots_first: int = 0  # sessions whose first request was /robots.txt
    gaps: int = 0  # gaps between consecutive requests of a session
    delayed: int = 0  # of those, the gaps before a request a Crawl-delay applied to
    short: int = 0  # of those, the gaps shorter than that delay
    shortest: float | None = None  # the shortest gap under a delay
    delay: int | float | None = None  # the longest Crawl-delay that applied to a gap, as the file wrote it

    def add(self, other: Totals) -> None:
        self.sessions += other.sessions
        self.robots_first += other.robots_first
        self.gaps += other.gaps
        self.delayed += other.delayed
        self.short += other.short
        self.shortest = least(self.shortest, other.shortest)
        self.delay = most(self.delay, other.delay)

    @property
    def too_fast(self) -> bool | None:
        """Whether its median gap under a Crawl-delay was shorter than the delay (None: no such gap)."""
        return None if not self.delayed else 2 * self.short > self.delayed

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"too_fast": self.too_fast}


@dataclass(slots=True)
class Track(Totals):
    """One crawler at one origin: its totals, and what stitching the next piece of input needs."""

    first: float = 0.0  # the time of its first request
    first_robots: bool = False  # the first request was for /robots.txt
    first_delay: int | float | None = None  # the Crawl-delay in force for the first request
    last: float = 0.0  # the latest time of the session going on

    def gap(self, gap: float, delay: int | float | None) -> None:
        """A gap of `gap` seconds within a session, before a request under `delay`."""
        self.gaps += 1
        if delay:
            self.delayed += 1
            if gap < delay:
                self.short += 1
            self.shortest = least(self.shortest, gap)
            self.delay = most(self.delay, delay)

    def totals(self) -> Totals:
        found = Totals()
        found.add(self)
        return found


def least(a: float | None, b: float | None) -> float | None:
    """The smaller of two optional numbers (None: unknown)."""
    return b if a is None else a if b is None else min(a, b)


def most(a: int | float | None, b: int | float | None) -> int | float | None:
    """The larger of two optional numbers (None: unknown)."""
    return b if a is None else a if b is None else max(a, b)


class Tracks:
    """Every (crawler token, origin) followed in one piece of input, in its order."""

    __slots__ = ("closed", "cut", "latest", "tracks")

    def __init__(self) -> None:
        self.tracks: dict[tuple[str, str | None], Track] = {}
        self.closed: dict[str, Totals] = {}  # by token: tracks folded in (idle past MAX_TRACKS)
        self.cut = 0  # tracks closed while their session might have gone on
        self.latest = float("-inf")  # the latest time seen

    def add(self, token: str, origin: str | None, when: float, robots: bool, delay: int | float | None) -> None:
        """A request of `token` at `origin` at `when` (for /robots.txt when `robots`), under `delay`."""
        key = (token, origin)
        track = self.tracks.get(key)
        if when > self.latest:
            self.latest = when
        if track is None:
            if len(self.tracks) >= MAX_TRACKS:
                self._close_idle()
            self.tracks[key] = Track(
                sessions=1, robots_first=robots, first=when, first_robots=robots, first_delay=delay, last=when
            )
            return
        gap = when - track.last
        if gap > GAP or gap < -GAP:
            track.sessions += 1
            track.robots_first += robots
            track.last = when
            return
        if gap > 0:
            track.last = when
        else:
            gap = 0.0  # sent while the one logged before it was still being served
        track.gap(gap, delay)

    def then(self, later: Tracks) -> None:
        """Add the tracks of the piece of input that follows this one (`later`), stitching open sessions; the
        merged tracks stay within `MAX_TRACKS` as one pass's do."""
        self.latest = max(self.latest, later.latest)
        for key, after in later.tracks.items():
            before = self.tracks.get(key)
            if before is None:
                if len(self.tracks) >= MAX_TRACKS:
                    self._close_idle()
                self.tracks[key] = after
                continue
            gap = after.first - before.last
            before.add(after)
            if -GAP <= gap <= GAP:
                # One session across the two pieces, as one pass would have it: the later piece's first
                # request did not begin one, and the session's latest time stays the latest.
                before.sessions -= 1
                before.robots_first -= after.first_robots
                before.gap(max(gap, 0.0), after.first_delay)
                before.last = max(before.last, after.last)
            else:
                before.last = after.last
        for token, totals in later.closed.items():
            self.closed.setdefault(token, Totals()).add(totals)
        self.cut += later.cut

    def by_token(self) -> dict[str, Totals]:
        """Every crawler's totals, its open tracks closed."""
        found: dict[str, Totals] = {}
        for token, totals in self.closed.items():
            found.setdefault(token, Totals()).add(totals)
        for (token, _), track in self.tracks.items():
            found.setdefault(token, Totals()).add(track)
        return found

    def _close_idle(self) -> None:
        """Fold the tracks idle for more than `GAP` into the totals, or, if few are, the tenth idle longest.

        Each is counted in `cut`: a session it began at the start of this piece can no longer be stitched.
        """
        idle = [key for key, track in self.tracks.items() if track.last < self.latest - GAP]
        if len(idle) < MAX_TRACKS // 10:
            idle = sorted(self.tracks, key=lambda key: self.tracks[key].last)[: MAX_TRACKS // 10]
        self.cut += len(idle)
        for key in idle:
            self.closed.setdefault(key[0], Totals()).add(self.tracks.pop(key))


__all__ = ["GAP", "MAX_TRACKS", "Totals", "Track", "Tracks", "least", "most"]
