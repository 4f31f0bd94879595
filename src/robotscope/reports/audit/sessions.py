"""A crawler's visits to an origin, cut into sessions: did it read robots.txt first, did it keep its Crawl-delay?

As Kim et al. (arXiv 2505.21733) cut them, a session ends after five
minutes without a request (`GAP`). For each (crawler, origin) a `Track`
holds a handful of numbers, not the requests: how many sessions began,
how many began with /robots.txt, and the gaps between consecutive requests
of a session, counted against the Crawl-delay in force for the later one.

Rate against Crawl-delay is measured by the gaps, not by requests per
minute: a gap shorter than the delay is a request sent too soon, and a
crawler whose *median* gap is below the delay (more than half its gaps
short) kept no delay at all. Counting short gaps gives that median
exactly without keeping the gaps; the shortest gap is kept too.

A request earlier than the one before it (Apache logs a request's start
at its end) is a gap of 0 when less than `GAP` earlier; further back, it
starts a new session: input unsorted by more than that is cut into more
sessions than it holds, the one approximation of a single pass.

A log read in pieces (files one after another, or `--jobs` chunks of one
file) gives each piece its tracks, and `Tracks.then` stitches the next
piece's onto them in input order. How a piece's first requests of a track
read depends on where the piece before left it, so each track keeps them
(its head) until a request later than any such point comes; stitching
replays the head where the earlier piece left off, and pieces give what
one pass gives, in any order of input.

Memory: one `Track` per (crawler, origin) seen, at most `MAX_TRACKS`; past
that the tracks idle longest are closed (folded into the crawler's totals,
where the next piece can no longer stitch onto them) and counted in `cut`.
Heads hold at most `HEADS` requests in all; a track whose head finds no
room is read as if nothing came before it, and counted in `cut` when
stitched.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

GAP = 300.0  # seconds without a request that end a session
MAX_TRACKS = 100_000  # (crawler, origin) pairs followed at once
HEADS = 50_000  # requests a piece keeps unread in its tracks' heads, all tracks together


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


Request = tuple[float, bool, int | float | None]  # when, for /robots.txt, the Crawl-delay in force


@dataclass(slots=True)
class Track(Totals):
    """One crawler at one origin: its totals, the time its session has got to, and, in a piece of input, the head.

    A piece's first requests of a track are read differently depending on where the piece before it left the
    track: a request up to `GAP` before that point is a gap of 0 in its session. So a piece keeps them as they
    came (`head`) until one comes later than any point they could be read against (`reach`): from there on
    (the body) one pass and the piece read every request alike, and stitching replays the head alone.
    """

    last: float | None = None  # the latest time of the session going on (None: none read; a head still grows)
    head: list[Request] | None = None  # requests not read yet (None: every request was read)
    reach: float = 0.0  # while the head grows: the latest time a piece before could have left the track at
    loose: bool = False  # the head outgrew `HEADS` and was read as if nothing came before: not stitched

    def read(self, when: float, robots: bool, delay: int | float | None) -> None:
        """A request of this track read in order: a new session, or a gap within the one going on."""
        gap = None if self.last is None else when - self.last
        if gap is None or gap > GAP or gap < -GAP:
            self.sessions += 1
            self.robots_first += robots
            self.last = when
            return
        if gap > 0:
            self.last = when
        else:
            gap = 0.0  # sent while the one logged before it was still being served
        self.gap(gap, delay)

    def gap(self, gap: float, delay: int | float | None) -> None:
        """A gap of `gap` seconds within a session, before a request under `delay`."""
        self.gaps += 1
        if delay:
            self.delayed += 1
            if gap < delay:
                self.short += 1
            self.shortest = least(self.shortest, gap)
            self.delay = most(self.delay, delay)

    def then(self, later: Track) -> None:
        """Read the same crawler's requests in the piece of input after this track's (`later`) onto it."""
        if later.head is None:  # read already, as if nothing came before it
            self.add(later)
            self.last = later.last
            return
        for request in later.head:
            self.read(*request)
        self.add(later)  # the body's totals
        if later.last is not None:  # the head was closed: the body was read from its last request
            self.last = later.last

    def settled(self) -> Track:
        """This track read as the start of the input: nothing came before its head."""
        if self.head is None:
            return self
        found = Track()
        found.then(self)
        return found


def least(a: float | None, b: float | None) -> float | None:
    """The smaller of two optional numbers (None: unknown)."""
    return b if a is None else a if b is None else min(a, b)


def most(a: int | float | None, b: int | float | None) -> int | float | None:
    """The larger of two optional numbers (None: unknown)."""
    return b if a is None else a if b is None else max(a, b)


class Tracks:
    """Every (crawler token, origin) followed in one piece of input, in its order."""

    __slots__ = ("closed", "cut", "heads", "latest", "tracks")

    def __init__(self) -> None:
        self.tracks: dict[tuple[str, str | None], Track] = {}
        self.closed: dict[str, Totals] = {}  # by token: tracks folded in (idle past MAX_TRACKS)
        self.cut = 0  # tracks closed while their session might have gone on
        self.latest = float("-inf")  # the latest time seen
        self.heads = 0  # requests kept in the tracks' heads

    def add(self, token: str, origin: str | None, when: float, robots: bool, delay: int | float | None) -> None:
        """A request of `token` at `origin` at `when` (for /robots.txt when `robots`), under `delay`."""
        key = (token, origin)
        track = self.tracks.get(key)
        if when > self.latest:
            self.latest = when
        if track is None:
            if len(self.tracks) >= MAX_TRACKS:
                self._close_idle()
            track = self.tracks[key] = Track(head=[], reach=when + GAP)
        if track.head is None or track.last is not None:
            track.read(when, robots, delay)
        elif self.heads >= HEADS:
            # Out of room: the head is read as if nothing came before it, and stitching will cut the session.
            track.loose = True
            head, track.head = track.head, None
            self.heads -= len(head)
            for request in head:
                track.read(*request)
            track.read(when, robots, delay)
        else:
            track.head.append((when, robots, delay))
            self.heads += 1
            if when > track.reach:  # later than wherever the piece before left the track: the body begins
                track.last = when
            else:
                track.reach = max(track.reach, when)

    def then(self, later: Tracks) -> None:
        """Add the tracks of the piece of input that follows this one (`later`), stitching open sessions, as one
        pass would read them; this one begins the input. The merged tracks stay within `MAX_TRACKS` as one
        pass's do."""
        self.latest = max(self.latest, later.latest)
        if self.heads:  # nothing came before this piece's heads
            for key, track in self.tracks.items():
                self.tracks[key] = track.settled()
            self.heads = 0
        for key, after in later.tracks.items():
            before = self.tracks.get(key)
            if before is None:
                if len(self.tracks) >= MAX_TRACKS:
                    self._close_idle()
                self.tracks[key] = after.settled()
                continue
            if after.loose:
                self.cut += 1  # its first session is counted apart from the one it may have gone on
            before.then(after)
        for token, totals in later.closed.items():
            self.closed.setdefault(token, Totals()).add(totals)
        self.cut += later.cut

    def by_token(self) -> dict[str, Totals]:
        """Every crawler's totals, its open tracks closed."""
        found: dict[str, Totals] = {}
        for token, totals in self.closed.items():
            found.setdefault(token, Totals()).add(totals)
        for (token, _), track in self.tracks.items():
            found.setdefault(token, Totals()).add(track.settled())
        return found

    def _close_idle(self) -> None:
        """Fold the tracks idle for more than `GAP` into the totals, or, if few are, the tenth idle longest.

        Each is counted in `cut`: a session it began at the start of this piece can no longer be stitched.
        """
        idle = [key for key, track in self.tracks.items() if _latest(track) < self.latest - GAP]
        if len(idle) < MAX_TRACKS // 10:
            idle = sorted(self.tracks, key=lambda key: _latest(self.tracks[key]))[: MAX_TRACKS // 10]
        self.cut += len(idle)
        for key in idle:
            track = self.tracks.pop(key)
            self.heads -= len(track.head or ())
            self.closed.setdefault(key[0], Totals()).add(track.settled())


def _latest(track: Track) -> float:
    """About the latest time of a track's requests, to tell how long it has been idle."""
    if track.last is not None:
        return track.last
    return max(when for when, _, _ in track.head or ())


__all__ = ["GAP", "HEADS", "MAX_TRACKS", "Request", "Totals", "Track", "Tracks", "least", "most"]
