"""The matcher's tuning constants, in one place: each says what it trades, and what measured it.

None of them changes an answer (property tests compare every path with a
naive matcher); they choose which of two equal ways of finding it is used.
"""

# Rule sets of at most this many rules are one list, tried in turn: on the corpus most
# crawlers' rules are this few, and splitting them by head costs more than it saves.
SMALL = 16

# Parts of a rule set (`parts.Part`) of at least this many rules are indexed by literal
# (`candidates.Candidates`); fewer are tried in turn. Measured on the corpus: an index
# costs about what scanning 100-150 rules costs per check, and far more to build.
INDEX_FROM = 128

# The rarest literals of each rule a candidate must have (`candidates.Candidates`): each
# slot costs one `|` per literal a target has; rules needing more are confirmed by the
# exact match. Three tell apart four-word rules drawn from 30 words (the `many-words`
# shape of benchmarks/shapes.py) down to the ~100 that can match.
SLOTS = 4
# Rules whose rarest literal is needed by at most this many rules are filed by that one alone.
RARE = 8

# Bits of rule masks a rule set keeps built (each mask is one bit per rule), about 4 MiB.
MASK_BITS = 1 << 25

# Literals are filed by a piece of this many characters (`literals.Literals`).
GRAM = 3
# Literals shorter than a piece tested one by one up to this many; past it (a hostile
# file) they are looked up among the target's pieces of their length.
FEW_SHORT = 256
# A rule set's literals, up to this many, are each tested with `in`: on the corpus (a few
# `/*?`, `/*.pdf$`, `/*sessionid=`) that costs less than reading a target's pieces.
FEW_DIRECT = 16
# Targets longer than this are tested through their distinct segments (a long URL of repeated
# segments), not whole.
LONG_TARGET = 512
# Contained literals sharing their first piece from which they are filed again, on first use,
# by the rarest of their pieces (10,000 `wordNNNN` must not all be tried when `wor` is met).
REFINE_FROM = 16

# Rules of a selection from which another engine's matching tests only `CandidateRules`' choice.
# Those engines test a rule through a function call each: lint's proofs, which ask Google's
# reading thousands of questions, took 18-20 % less time with 16 than with 64.
MANY_RULES = 16

# Groups from which a file keeps an index of them by token; fewer are scanned (an index costs memory in every file).
INDEX_GROUPS_FROM = 16
# Protego's rule sets from which the best for a crawler is looked up by the names its words can
# start (about len(crawler) squared lookups) instead of scoring each (a long run of user-agent
# lines would make `readings` crawlers x rule sets).
LOOKUP_RULE_SETS_FROM = 256
# User-Agent strings a file keeps the rule set of; past it the strings are dropped (not the
# indexes, kept by token and by the groups selected), so a log of distinct strings stays bounded.
MAX_CACHED_AGENTS = 256

# A crawler named in this many groups or more is answered by a `Rulebook` from one index of
# their rules merged; below that, group by group, so that a group many crawlers share is
# indexed once rather than once for each of them.
MERGED_FROM = 8
