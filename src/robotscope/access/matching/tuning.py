"""The matcher's tuning constants, in one place: each says what it trades, and what measured it.

None of them changes an answer (property tests compare every path with a
naive matcher); they choose which of two equal ways of finding it is used.
"""

# Rule sets of at most this many rules keep all their rules in one bucket, built at
# once: on the corpus most crawlers' rules are this few, and building buckets per
# two characters costs more than it saves for them.
SMALL = 16

# Buckets a large rule set keeps (one per two-character key asked about); past it they
# are dropped and rebuilt on use, so a crawl of many distinct paths stays bounded.
MAX_BUCKETS = 512

# Keyed rules in one bucket from which an index of their plain prefixes beats
# scanning them (a file of thousands of `Disallow: /path` lines).
INDEX_FROM = 24

# Required literals of the key-less rules from which one regex search rules
# them out faster than scanning them (measured on the corpus: the regex costs
# ~0.2 ms to build).
REGEX_FILTER_FROM = 6

# Targets a rule set is asked about before its regex filter is compiled. Measured: the
# regex costs as much to build as 45-75 scans of the rules it filters save (6 to 200
# literals alike), so compiling after that many asks never costs more than twice the
# better choice in hindsight, and a crawler asking a few dozen URLs of a host never pays.
COMPILE_AFTER = 64

# Key-less rules from which their literals are indexed (`literals.LiteralIndex`) rather than
# ruled out by one regex: a regex of thousands of literals takes a second to compile.
LITERAL_INDEX_FROM = 256
# Rules of a selection from which another engine's matching tests only `CandidateRules`' choice.
MANY_RULES = LITERAL_INDEX_FROM
# Literals are indexed by their first (or, when they end the target, last) characters.
GRAM = 3

# Groups from which a file keeps an index of them by token; fewer are scanned (an index costs memory in every file).
INDEX_GROUPS_FROM = 16
# User-Agent strings a file keeps the rule set of; past it the strings are dropped (not the
# indexes, kept by token and by the groups selected), so a log of distinct strings stays bounded.
MAX_CACHED_AGENTS = 256

# A crawler named in this many groups or more is answered by a `Rulebook` from one index of
# their rules merged; below that, group by group, so that a group many crawlers share is
# indexed once rather than once for each of them.
MERGED_FROM = 8
