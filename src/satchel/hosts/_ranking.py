"""Ranking skills (and any named items) by their relevance to a query: Okapi BM25.

Without a query, `rank` keeps the order it is given (precedence order, as `load()`
settles it). With one, items are scored by BM25F (Robertson and Zaragoza, "The
Probabilistic Relevance Framework: BM25 and Beyond", 2009, section 3.6): each
field's term frequency is normalised by that field's length against its average
(``b``), weighted (a skill's `name` counts three times, its `description` and
`when_to_use` once each), summed, and saturated once with ``k1``; the inverse
document frequency is Lucene's, ``ln(1 + (N - n + 0.5) / (n + 0.5))``, never
negative. Defaults ``k1 = 1.5`` and ``b = 0.75``. A query term counts once however
often it is written. Items are sorted by score, highest first; equal scores (all of
them for a query that matches nothing) keep the order given, so the result is
always a permutation of the input and the same input gives the same order.

Words are what `tokenize` finds: runs of letters and digits, split at camelCase
humps (in ASCII words) and between letters and digits, casefolded: ``"pdfToText-v2"`` is
``pdf to text v 2``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from satchel.skills._model import Skill

__all__ = [
    "B",
    "K1",
    "SKILL_FIELDS",
    "bm25_scores",
    "rank",
    "rank_items",
    "rank_skills",
    "skill_fields",
    "tokenize",
]

K1 = 1.5
B = 0.75
SKILL_FIELDS: Mapping[str, float] = {"name": 3.0, "description": 1.0, "when_to_use": 1.0}
_T = TypeVar("_T")
_RUN = re.compile(r"[^\W_]+")
_HUMP = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_DIGITS = re.compile(r"\d+|[^\W\d_]+")


def tokenize(text: str) -> list[str]:
    """The words of `text`, in order, casefolded (see the module docstring)."""
    if text.isascii():  # the common case, in one pass: what is not a word is skipped
        return " ".join(_HUMP.findall(text)).lower().split()
    return [w.casefold() for run in _RUN.findall(text) for w in _words(run)]


def _words(run: str) -> list[str]:
    """A run split at camelCase humps (ASCII letters; other scripts split only
    between letters and digits) and between letters and digits."""
    return _HUMP.findall(run) if run.isascii() else _DIGITS.findall(run)


def bm25_scores(
    documents: Sequence[Mapping[str, str]],
    query: str,
    weights: Mapping[str, float],
    *,
    k1: float = K1,
    b: float = B,
) -> list[float]:
    """One BM25F score per document (a mapping of field to text) for `query`;
    fields not in `weights` are not read."""
    terms = set(tokenize(query))
    if not terms or not documents:
        return [0.0] * len(documents)
    lengths: dict[str, list[int]] = {f: [] for f in weights}
    hits: list[dict[str, Counter[str]]] = []  # per document: field -> query terms in it
    for doc in documents:
        row = {}
        for f in weights:
            words = tokenize(doc.get(f, ""))
            lengths[f].append(len(words))
            found = [w for w in words if w in terms]
            if found:
                row[f] = Counter(found)
        hits.append(row)
    total = len(documents)
    average = {f: sum(n) / total or 1.0 for f, n in lengths.items()}
    holding = Counter(t for row in hits for t in set().union(*row.values()))
    idf = {t: math.log(1 + (total - n + 0.5) / (n + 0.5)) for t, n in holding.items()}
    scores = []
    for i, row in enumerate(hits):
        tf: dict[str, float] = {}
        for f, counts in row.items():
            norm = 1 - b + b * lengths[f][i] / average[f]
            for term, count in counts.items():
                tf[term] = tf.get(term, 0.0) + weights[f] * count / norm
        scores.append(sum(idf[t] * x * (k1 + 1) / (x + k1) for t, x in tf.items()))
    return scores


def rank_items(
    items: Iterable[_T],
    query: str | None,
    fields: Callable[[_T], Mapping[str, str]],
    weights: Mapping[str, float],
) -> list[_T]:
    """`items` by BM25F relevance of `fields(item)` to `query`, highest first, ties
    in the order given; in the order given when `query` is None or has no words."""
    listed = list(items)
    if query is None or not tokenize(query):
        return listed
    scores = bm25_scores([fields(i) for i in listed], query, weights)
    order = sorted(range(len(listed)), key=lambda i: -scores[i])  # sorted() is stable
    return [listed[i] for i in order]


def rank(skills: Mapping[str, Skill] | Iterable[Skill], query: str | None = None) -> list[Skill]:
    """The skills most relevant to `query` first (BM25F over name, description and
    `when_to_use`), equal scores in the order given; the order given without a query."""
    items = skills.values() if isinstance(skills, Mapping) else skills
    return rank_items(items, query, skill_fields, SKILL_FIELDS)


rank_skills = rank  # the public name: satchel.rank_skills(skills, query)


def skill_fields(skill: Skill) -> Mapping[str, str]:
    return {
        "name": skill.name,
        "description": skill.description,
        "when_to_use": skill.when_to_use or "",
    }
