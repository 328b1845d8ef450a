"""The integrity monitor's statistics, on plain data (``facts``): no database, no Django.

Four checks, each a family of tests whose false alarms are held together below ``alpha`` per run
by Bonferroni's correction (a test flags only when its p-value is below ``alpha`` divided by the
number of tests of its check that were run):

* **cards** — the categories of hands shown *blind* at showdowns, per table, dealer and day,
  against the exact odds of the 22,100 three-card hands: Pearson's goodness-of-fit test, with
  the rare categories pooled until every class expects at least ``MIN_EXPECTED`` hands, and
  the statistic divided by the tables' own dispersion (``dispersion_of``).
* **folds** — for each ordered pair of players: does one fold to the other's bets more than to
  everyone else's, and more than everyone else folds to the other's, in the same situations?
  Exact conditional tests of stratified 2×2 tables, joined as an intersection–union test.
* **flows** — for each pair: the net money that passed between them, against the share of the
  money each wins in their exchanges with everyone else; Hoeffding's inequality for the tail
  (valid for any sizes of pots, so one big pot cannot fake a flag).
* **dealers** — voids, refused entries and misdeals per hand of each dealer against the other
  dealers' rate: the exact conditional (binomial) test of two Poisson rates.

SciPy gives the distributions (``chisquare``, ``hypergeom``, ``binom``); what no library has —
pooling the rare categories, the pair baselines — is written here. ``docs/integrity.md``
explains each test, what it assumes and its false-alarm rate measured by
``integrity.simulate``."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .facts import Exchange, FoldChance, HandFacts, Key, Shown


def _scipy() -> Any:
    """SciPy (``stats``, ``special``), imported on first use. Every process that starts Django
    imports this module (the Celery tasks, through the services), and SciPy's statistics take
    seconds of CPU to import: a web worker or a test process that never runs the monitor no
    longer pays for them."""
    import scipy.special
    import scipy.stats

    return scipy


ALPHA = 0.001
"""Per check and per run: at most this chance that an honest event gets a false flag from it."""

CATEGORIES = ("prial", "running_flush", "run", "flush", "pair", "high_card")
"""Best first: the order in which the rare categories are pooled."""

HANDS_PER_CATEGORY = (52, 48, 720, 1096, 3744, 16440)
"""RULES §1: how many of the 22,100 three-card hands fall in each category."""

ODDS = np.array(HANDS_PER_CATEGORY, dtype=float) / sum(HANDS_PER_CATEGORY)

MIN_EXPECTED = 5.0
"""Pearson's test needs at least this many expected hands in every class it compares."""

MIN_CLASSES = 3
"""... and at least three classes: 58 blind hands give "flush or better", "pair", "high card"."""

MIN_CHANCES = 20
"""A pair's fold tests need at least this many hands in which one faced the other's bet."""

MIN_EXCHANGES = 20
"""A pair's money test needs at least this many hands in which money passed between them."""

MIN_DEALER_HANDS = 200
"""A dealer is compared with the others from this many hands on."""

STAKE_BANDS = (0.5, 1.0, 2.0)
"""Stakes are compared in bands of the day's largest first bet: up to half of it, up to all of
it, up to twice it, more."""

DEALER_KINDS = ("voids", "refusals", "misdeals")

CHECKS = ("cards", "folds", "flows", "dealers")


@dataclass(frozen=True, slots=True)
class DealerEvent:
    dealer: Key
    kind: str
    hand: int | None


@dataclass
class Finding:
    """One test that was run: its subject, p-value and the figures behind it."""

    check: str
    subject: tuple[Any, ...]
    p_value: float
    numbers: dict[str, Any]
    hands: tuple[int, ...] = ()
    threshold: float = 0.0

    @property
    def flagged(self) -> bool:
        return self.p_value < self.threshold


@dataclass
class Report:
    alpha: float
    findings: list[Finding] = field(default_factory=list)
    tests: dict[str, int] = field(default_factory=dict)
    hands: int = 0

    @property
    def flags(self) -> list[Finding]:
        return [f for f in self.findings if f.flagged]


def monitor(
    hands: Iterable[HandFacts],
    dealer_hands: Mapping[Any, int],
    dealer_events: Iterable[DealerEvent],
    *,
    alpha: float = ALPHA,
    kinds: Sequence[str] = DEALER_KINDS,
) -> Report:
    """Run every check over the facts of the settled hands and the dealers' tallies."""
    facts = list(hands)
    report = Report(alpha=alpha, hands=len(facts))
    cards = cards_check(facts, alpha)
    # A table whose cards are flagged is left out of the pair checks: its hands are not random
    # (the same ones may keep coming back), so who folds or pays whom there says nothing about
    # collusion.
    broken = {f.subject[1] for f in cards if f.flagged and f.subject[0] == "table"}
    fair = [f for f in facts if f.table not in broken]
    for check, findings in (
        ("cards", cards),
        ("folds", folds_check([c for f in fair for c in f.chances], alpha)),
        ("flows", flows_check([x for f in fair for x in f.exchanges], alpha)),
        ("dealers", dealers_check(dealer_hands, list(dealer_events), alpha, kinds)),
    ):
        report.findings.extend(findings)
        report.tests[check] = len(findings)
    return report


def _bonferroni(findings: list[Finding], alpha: float) -> None:
    for f in findings:
        f.threshold = alpha / len(findings)


def _order(key: Any) -> str:
    return repr(key)


# ---------------------------------------------------------------------------- the cards


def pool(expected: Any) -> list[list[int]]:
    """Classes of category indexes (best first) such that each expects at least
    ``MIN_EXPECTED`` hands: a rare category joins the next more common one; what is left over at
    the end joins the last class."""
    classes: list[list[int]] = []
    current: list[int] = []
    total = 0.0
    for i, e in enumerate(expected):
        current.append(i)
        total += e
        if total >= MIN_EXPECTED:
            classes.append(current)
            current, total = [], 0.0
    if current:
        if classes:
            classes[-1].extend(current)
        else:
            classes.append(current)
    return classes


def goodness_of_fit(
    categories: Sequence[str], dispersion: float = 1.0
) -> tuple[float, dict[str, Any]] | None:
    """Pearson's test of the categories of hands against the exact odds, or ``None`` when there
    are too few hands for ``MIN_CLASSES`` classes. ``dispersion`` (≥ 1) divides the statistic
    before its p-value is read (see ``dispersion_of``)."""
    n = len(categories)
    counts = Counter(categories)
    observed = np.array([counts.get(c, 0) for c in CATEGORIES], dtype=float)
    expected = ODDS * n
    classes = pool(expected)
    if len(classes) < MIN_CLASSES:
        return None
    obs = np.array([observed[c].sum() for c in classes])
    exp = np.array([expected[c].sum() for c in classes])
    statistic = float(_scipy().stats.chisquare(obs, exp).statistic)
    df = len(classes) - 1
    p = float(_scipy().stats.chi2.sf(statistic / dispersion, df))
    numbers = {
        "hands": n,
        "statistic": round(statistic, 2),
        "df": df,
        "dispersion": round(dispersion, 2),
        "classes": [
            {
                "categories": [CATEGORIES[i] for i in c],
                "observed": int(o),
                "expected": round(float(e), 1),
            }
            for c, o, e in zip(classes, obs, exp, strict=True)
        ],
    }
    return p, numbers


def dispersion_of(tables: Sequence[Sequence[str]], *, trim: bool = False) -> float:
    """How much more the categories vary from table to table than independent hands would.

    The rules do not shuffle between hands (the cards go to the bottom), so the hands of one
    table are not quite independent, and a table's counts stray further from the odds than
    Pearson's test assumes: in the simulated honest events, 3 % of tables fell below p = 0.01
    and the statistic over its degrees of freedom averaged 1.18 instead of 1. That mean, over
    the tables given, estimates the factor by which every statistic is divided (Rao and Scott's
    first-order correction for clustered counts). ``trim`` leaves out the top tenth (a first
    guess that a bad table cannot inflate). Never below 1; 1 with fewer than five tables."""
    ratios = []
    for cats in tables:
        result = goodness_of_fit(cats)
        if result is not None:
            ratios.append(result[1]["statistic"] / result[1]["df"])
    if len(ratios) < 5:
        return 1.0
    ratios.sort()
    if trim:
        ratios = ratios[: len(ratios) - max(1, round(len(ratios) / 10))]
    return max(1.0, float(np.mean(ratios)))


def _groups(
    shown: Iterable[Shown], facts_of: Mapping[int, HandFacts]
) -> dict[tuple[Any, ...], list[Shown]]:
    groups: dict[tuple[Any, ...], list[Shown]] = defaultdict(list)
    for s in shown:
        f = facts_of[s.hand]
        for subject in (("table", f.table), ("dealer", f.dealer), ("day", f.day)):
            groups[subject].append(s)
    return groups


def cards_check(
    facts: list[HandFacts], alpha: float, *, allow_dispersion: bool = True
) -> list[Finding]:
    """Tables first; then dealers and days on the hands of the tables that were not flagged, so
    one bad table is one flag, and a dealer or a day is flagged for what happened elsewhere.
    Only blind hands count: nobody chose to show them for their cards. (``allow_dispersion``
    off: Pearson's test as it is, for the simulation's comparisons.)"""
    facts_of = {f.hand: f for f in facts}
    blind = [s for f in facts for s in f.shown if s.blind]
    groups = _groups(blind, facts_of)
    testable = sorted(
        (k for k, v in groups.items() if len(pool(ODDS * len(v))) >= MIN_CLASSES), key=_order
    )
    tables = [k for k in testable if k[0] == "table"]
    threshold = alpha / max(len(testable), 1)
    findings, used = _tables_findings(groups, tables, threshold, allow_dispersion)
    bad_tables = {f.subject[1] for f in findings if f.flagged}
    rest = _groups((s for s in blind if facts_of[s.hand].table not in bad_tables), facts_of)
    for subject in (k for k in testable if k[0] != "table"):
        finding = _cards_finding(subject, rest.get(subject, []), used, threshold)
        if finding is not None:
            if bad_tables:
                finding.numbers["left_out_tables"] = len(bad_tables)
            findings.append(finding)
    return findings


def _tables_findings(
    groups: dict[tuple[Any, ...], list[Shown]],
    tables: list[tuple[Any, ...]],
    threshold: float,
    allow_dispersion: bool,
) -> tuple[list[Finding], float]:
    """The tables' findings and the dispersion they were judged with. The dispersion is first
    guessed without the most scattered tenth of the tables, then measured on the tables not
    flagged (so a bad table cannot make itself or others look normal), until the flags settle."""
    categories = {k: [s.category for s in groups[k]] for k in tables}
    dispersion = dispersion_of(list(categories.values()), trim=True) if allow_dispersion else 1.0
    bad: set[tuple[Any, ...]] = set()
    findings: list[Finding] = []
    used = dispersion
    for _round in range(3):
        used = dispersion
        findings = [
            f
            for f in (_cards_finding(k, groups[k], used, threshold) for k in tables)
            if f is not None
        ]
        flagged = {f.subject for f in findings if f.flagged}
        measured = (
            dispersion_of([v for k, v in categories.items() if k not in flagged])
            if allow_dispersion
            else 1.0
        )
        if flagged == bad and measured == dispersion:
            break
        bad, dispersion = flagged, measured
    return findings, used


def _cards_finding(
    subject: tuple[Any, ...], shown: list[Shown], dispersion: float, threshold: float
) -> Finding | None:
    result = goodness_of_fit([s.category for s in shown], dispersion)
    if result is None:
        return None
    p, numbers = result
    # The hands to look at first: those of the categories that came up more than the odds say.
    over = {
        c
        for cls in numbers["classes"]
        if cls["observed"] > cls["expected"]
        for c in cls["categories"]
    }
    rank = {c: i for i, c in enumerate(CATEGORIES)}
    picked = sorted(
        {(rank[s.category], s.hand) for s in shown if s.category in over}
        or {(0, s.hand) for s in shown}
    )
    hands = tuple(dict.fromkeys(h for _r, h in picked))[:60]
    return Finding("cards", subject, p, numbers, hands, threshold)


# ---------------------------------------------------------------------------- folds

Stratum = tuple[bool, int, bool, bool]


def stratum(c: FoldChance) -> Stratum:
    """The situation of a turn: blind or not, the band of the stake, two left or more, and
    whether the player had already stayed in against a bet this hand."""
    band = next((i for i, top in enumerate(STAKE_BANDS) if c.stake <= top), len(STAKE_BANDS))
    return (c.blind, band, c.heads_up, c.stayed)


def _hypergeometric_tail(observed: int, tables: Sequence[tuple[int, int, int]]) -> float:
    """P(X ≥ observed) for X the sum of independent hypergeometric counts, one per stratum,
    each ``(population, successes, draws)``: the exact conditional test of stratified 2×2
    tables."""
    dist = np.array([1.0])
    for population, successes, draws in tables:
        dist = np.convolve(dist, _hypergeometric_pmf(population, successes, draws))
    return float(min(1.0, max(0.0, dist[observed:].sum())))


def _hypergeometric_pmf(population: int, successes: int, draws: int) -> Any:
    """``scipy.stats.hypergeom.pmf`` for k = 0 … min(successes, draws), from a table of
    log-factorials: SciPy's distribution object costs a hundred times more per call, and the
    folds check makes tens of thousands of them (a test compares the two)."""
    lf = _log_factorials(population)
    k = np.arange(min(successes, draws) + 1)
    failures = population - successes
    rest = draws - k
    possible = rest <= failures
    rest = np.where(possible, rest, 0)
    log_pmf = (
        lf[successes]
        - lf[k]
        - lf[successes - k]
        + lf[failures]
        - lf[rest]
        - lf[failures - rest]
        - (lf[population] - lf[draws] - lf[population - draws])
    )
    return np.where(possible, np.exp(log_pmf), 0.0)


_LOG_FACTORIALS = np.zeros(0)


def _log_factorials(n: int) -> Any:
    """log(k!) for k = 0 … n (at least), grown as needed (1,024 at first)."""
    global _LOG_FACTORIALS
    if len(_LOG_FACTORIALS) <= n:
        size = 1024 if n < 1024 else 2 * n + 1
        _LOG_FACTORIALS = _scipy().special.gammaln(np.arange(1, size + 1, dtype=float))
    return _LOG_FACTORIALS


def folds_check(chances: list[FoldChance], alpha: float) -> list[Finding]:
    """For each ordered pair (player, bettor), two exact conditional tests over the situations
    (``stratum``): does the player fold to this bettor more than to everyone else's bets, and
    more than everyone else folds to this bettor's bets? The pair is flagged only if both say so
    (an intersection–union test: its p-value is the larger of the two), so a player who folds to
    everybody, or a bettor everybody fears, does not make a pair."""
    pair_n: Counter[tuple[Key, Key, Stratum]] = Counter()
    pair_f: Counter[tuple[Key, Key, Stratum]] = Counter()
    player_n: Counter[tuple[Key, Stratum]] = Counter()
    player_f: Counter[tuple[Key, Stratum]] = Counter()
    bettor_n: Counter[tuple[Key, Stratum]] = Counter()
    bettor_f: Counter[tuple[Key, Stratum]] = Counter()
    pair_strata: dict[tuple[Key, Key], set[Stratum]] = defaultdict(set)
    evidence: dict[tuple[Key, Key], list[int]] = defaultdict(list)
    for c in chances:
        s = stratum(c)
        pair_strata[c.player, c.bettor].add(s)
        pair_n[c.player, c.bettor, s] += 1
        player_n[c.player, s] += 1
        bettor_n[c.bettor, s] += 1
        if c.folded:
            pair_f[c.player, c.bettor, s] += 1
            player_f[c.player, s] += 1
            bettor_f[c.bettor, s] += 1
            evidence[c.player, c.bettor].append(c.hand)
    findings: list[Finding] = []
    for (a, b), strata in sorted(pair_strata.items(), key=lambda kv: _order(kv[0])):
        order = sorted(strata)
        chances_ab = sum(pair_n[a, b, s] for s in order)
        if chances_ab < MIN_CHANCES:
            continue
        folds = sum(pair_f[a, b, s] for s in order)
        p_player = _hypergeometric_tail(
            folds, [(player_n[a, s], player_f[a, s], pair_n[a, b, s]) for s in order]
        )
        p_bettor = _hypergeometric_tail(
            folds, [(bettor_n[b, s], bettor_f[b, s], pair_n[a, b, s]) for s in order]
        )
        # What each one's play elsewhere predicts, situation by situation.
        from_player = from_bettor = 0.0
        pf_all = pn_all = bf_all = bn_all = 0
        for s in order:
            n, f = pair_n[a, b, s], pair_f[a, b, s]
            pn, pf = player_n[a, s] - n, player_f[a, s] - f
            bn, bf = bettor_n[b, s] - n, bettor_f[b, s] - f
            from_player += n * pf / pn if pn else 0.0
            from_bettor += n * bf / bn if bn else 0.0
            pf_all, pn_all, bf_all, bn_all = pf_all + pf, pn_all + pn, bf_all + bf, bn_all + bn
        numbers = {
            "chances": chances_ab,
            "folds": folds,
            "expected_from_player": round(from_player, 1),
            "expected_from_bettor": round(from_bettor, 1),
            "player_rate_elsewhere": _ratio(pf_all, pn_all),
            "others_rate_to_bettor": _ratio(bf_all, bn_all),
            "p_player": p_player,
            "p_bettor": p_bettor,
        }
        hands = tuple(dict.fromkeys(evidence[a, b]))[:60]
        findings.append(Finding("folds", ("pair", a, b), max(p_player, p_bettor), numbers, hands))
    if findings:
        _bonferroni(findings, alpha)
    return findings


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 3) if den else None


# ---------------------------------------------------------------------------- flows


def _log5(a: float, b: float, base: float) -> float:
    """Two rates measured against everyone (one player's, the other's) combined into the rate
    expected when they meet: their odds multiply, relative to everyone's odds."""
    eps = 1e-9
    a, b, base = (min(max(x, eps), 1 - eps) for x in (a, b, base))
    odds = (a / (1 - a)) * (b / (1 - b)) / (base / (1 - base))
    return odds / (1 + odds)


def flows_check(exchanges: list[Exchange], alpha: float) -> list[Finding]:
    """For each pair with enough exchanges: the net money from one to the other against what
    each one's share of the money in exchanges with everybody else predicts. Each exchange is
    taken as going either way with that share; Hoeffding's inequality bounds the chance of a net
    this far from the expected one whatever the sizes of the pots.

    A dumper's losses to their partner would also drag down their share against everybody else,
    and so make their honest pairs look odd. So the pairs flagged are taken out of everyone's
    shares and the check is run again, until the flags no longer change."""
    pairs: dict[tuple[Key, Key], list[tuple[float, int, int]]] = defaultdict(list)
    for x in exchanges:
        a, b = sorted((x.loser, x.winner), key=_order)
        pairs[a, b].append((x.amount, 1 if x.loser == a else -1, x.hand))  # +1: from a to b
    testable = sorted((k for k, v in pairs.items() if len(v) >= MIN_EXCHANGES), key=_order)
    if not testable:
        return []
    mean = float(np.mean([x.amount for x in exchanges]))
    left_out: set[tuple[Key, Key]] = set()
    findings: list[Finding] = []
    for _round in range(5):
        won: dict[Key, float] = defaultdict(float)
        lost: dict[Key, float] = defaultdict(float)
        for (a, b), rows in pairs.items():
            if (a, b) in left_out:
                continue
            for m, s, _h in rows:
                loser, winner = (a, b) if s > 0 else (b, a)
                won[winner] += m
                lost[loser] += m
        findings = [
            _flow_finding(a, b, pairs[a, b], won, lost, mean, (a, b) in left_out)
            for a, b in testable
        ]
        for f in findings:
            f.threshold = alpha / len(findings)
        flagged = {tuple(sorted(f.subject[1:], key=_order)) for f in findings if f.flagged}
        if flagged == left_out:
            break
        left_out = flagged  # type: ignore[assignment]
    return findings


def _flow_finding(
    a: Key,
    b: Key,
    rows: list[tuple[float, int, int]],
    won: Mapping[Key, float],
    lost: Mapping[Key, float],
    mean: float,
    already_out: bool,
) -> Finding:
    a_to_b = sum(m for m, s, _h in rows if s > 0)
    b_to_a = sum(m for m, s, _h in rows if s < 0)
    # Each one's share of the money in their exchanges with everybody else (this pair's own
    # exchanges taken out, unless they are already out); ten typical exchanges, half won, pull
    # a thin record towards even.
    own = 0.0 if already_out else 1.0
    won_a, lost_a = won[a] - own * b_to_a, lost[a] - own * a_to_b
    won_b, lost_b = won[b] - own * a_to_b, lost[b] - own * b_to_a
    prior = 10 * mean
    share_a = (won_a + prior / 2) / (won_a + lost_a + prior)
    share_b = (won_b + prior / 2) / (won_b + lost_b + prior)
    to_b = _log5(share_b, 1 - share_a, 0.5)  # the share of a–b money expected to reach b
    money = a_to_b + b_to_a
    net = a_to_b - b_to_a
    expected = (2 * to_b - 1) * money
    squares = sum(m * m for m, _s, _h in rows)
    gap = net - expected
    p_value = min(1.0, 2 * math.exp(-(gap * gap) / (2 * squares))) if squares else 1.0
    sign = 1 if gap > 0 else -1
    giver, taker = (a, b) if sign > 0 else (b, a)
    numbers = {
        "exchanges": len(rows),
        "money": round(money),
        "net": round(sign * net),
        "expected": round(sign * expected),
        "giver_share_elsewhere": round(share_a if sign > 0 else share_b, 3),
        "taker_share_elsewhere": round(share_b if sign > 0 else share_a, 3),
    }
    toward = [h for m, s, h in sorted(rows, key=lambda r: -r[0]) if s == sign]
    return Finding("flows", ("pair", giver, taker), p_value, numbers, tuple(toward[:60]))


# ---------------------------------------------------------------------------- dealers


def dealers_check(
    dealer_hands: Mapping[Any, int],
    events: list[DealerEvent],
    alpha: float,
    kinds: Sequence[str] = DEALER_KINDS,
) -> list[Finding]:
    """Each dealer's count of each kind of mistake against the other dealers': given how many
    there were in all, the share that falls to one dealer is binomial with the share of the
    hands they dealt (if every dealer makes them at the same rate)."""
    counts: Counter[tuple[Key, str]] = Counter()
    evidence: dict[tuple[Key, str], list[int]] = defaultdict(list)
    for e in events:
        counts[e.dealer, e.kind] += 1
        if e.hand is not None:
            evidence[e.dealer, e.kind].append(e.hand)
    all_hands = sum(dealer_hands.values())
    findings: list[Finding] = []
    for kind in kinds:
        total = sum(counts[d, kind] for d in dealer_hands)
        if not total:
            continue
        for dealer in sorted(dealer_hands, key=_order):
            n = dealer_hands[dealer]
            if n < MIN_DEALER_HANDS or n >= all_hands:
                continue
            x = counts[dealer, kind]
            share = n / all_hands
            p_value = float(_scipy().stats.binom.sf(x - 1, total, share)) if x else 1.0
            others = all_hands - n
            numbers = {
                "kind": kind,
                "hands": n,
                "count": x,
                "per_100": round(100 * x / n, 2),
                "others_hands": others,
                "others_count": total - x,
                "others_per_100": round(100 * (total - x) / others, 2),
                "expected": round(total * share, 1),
            }
            hands = tuple(dict.fromkeys(evidence[dealer, kind]))[:60]
            findings.append(Finding("dealers", ("dealer", dealer), p_value, numbers, hands))
    if findings:
        _bonferroni(findings, alpha)
    return findings


# ---------------------------------------------------------------------------- dealers' figures


@dataclass(frozen=True)
class DealerPace:
    """What a dealer's clock says: the hours they were signed in at a table (``None``: no shift
    recorded) and the seconds between one entry and the next within their hands."""

    hours: float | None
    gaps: tuple[float, ...] = ()


def rate_p_value(
    count: int, exposure: float, total: int, total_exposure: float, *, low: bool
) -> float:
    """The exact conditional test of two Poisson rates (``dealers_check``'s): given ``total``
    events over ``total_exposure``, the share falling to an exposure of ``exposure`` is
    binomial with the share of the exposure. ``low``: the chance of this few or fewer (too
    slow); else of this many or more."""
    if total <= 0 or total_exposure <= 0 or exposure <= 0 or exposure >= total_exposure:
        return 1.0
    share = exposure / total_exposure
    binom = _scipy().stats.binom
    return float(binom.cdf(count, total, share) if low else binom.sf(count - 1, total, share))


FIGURES = ("hands_per_hour", "seconds_per_action", "voids", "misdeals")


def dealer_figures(
    dealer_hands: Mapping[Any, int],
    events: Iterable[DealerEvent],
    paces: Mapping[Any, DealerPace],
    alpha: float = ALPHA,
) -> dict[Any, dict[str, Any]]:
    """Each dealer's figures — hands per hour, the median seconds per action, voids and
    misdeals per hundred hands — each with the test that flags an outlier against the other
    dealers: the exact conditional test of two Poisson rates (voids and misdeals: per hand,
    too many, ``dealers_check`` itself; hands per hour and actions per second: per hour on
    the clock, too few), Bonferroni over the dealers tested for that figure, like every check
    of the monitor. A dealer with fewer than ``MIN_DEALER_HANDS`` hands, or no shift on the
    clock, is shown and not tested."""
    out: dict[Any, dict[str, Any]] = {}
    for dealer in sorted(dealer_hands, key=_order):
        pace = paces.get(dealer, DealerPace(None))
        n = dealer_hands[dealer]
        gaps = sorted(pace.gaps)
        out[dealer] = {
            "hands": n,
            "hours": round(pace.hours, 2) if pace.hours is not None else None,
            "hands_per_hour": round(n / pace.hours, 1) if pace.hours else None,
            "median_seconds": round(float(np.median(gaps)), 1) if gaps else None,
            "actions": len(gaps),
            "tests": {},
        }
    # Voids and misdeals per hand: the monitor's own dealers' check.
    events = list(events)
    for finding in dealers_check(dealer_hands, events, alpha, ("voids", "misdeals")):
        row = out[finding.subject[1]]
        kind = finding.numbers["kind"]
        row["tests"][kind] = finding
    # Every dealer's count, tested or not (too few hands, or the only dealer).
    counted: Counter[tuple[Any, str]] = Counter((e.dealer, e.kind) for e in events)
    for dealer, row in out.items():
        for kind in ("voids", "misdeals"):
            row[kind] = counted[dealer, kind]
            n = row["hands"]
            row[f"{kind}_per_100"] = round(100 * row[kind] / n, 2) if n else None
    # Hands per hour and actions per second, against the other dealers' rates.
    tested = [
        d for d, r in out.items() if r["hands"] >= MIN_DEALER_HANDS and r["hours"] is not None
    ]
    for figure in ("hands_per_hour", "seconds_per_action"):
        findings: list[Finding] = []
        if figure == "hands_per_hour":
            rows = [(d, out[d]["hands"], float(paces[d].hours or 0)) for d in tested]
        else:
            rows = [(d, len(paces[d].gaps), float(sum(paces[d].gaps))) for d in tested]
        total = sum(count for _d, count, _e in rows)
        exposure = sum(e for _d, _c, e in rows)
        for dealer, count, own in rows:
            p_value = rate_p_value(count, own, total, exposure, low=True)
            others = exposure - own
            numbers = {
                "kind": figure,
                "count": count,
                "exposure": round(own, 1),
                "others_rate": round((total - count) / others, 6) if others > 0 else None,
            }
            findings.append(Finding("dealers", ("dealer", dealer), p_value, numbers))
        if len(findings) > 1:
            _bonferroni(findings, alpha)
            for f in findings:
                out[f.subject[1]]["tests"][figure] = f
    return out
