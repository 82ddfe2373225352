"""Compound-question sets built from the judged eval data, reproducibly from a fixed seed.

Two questions about different documents are joined the way people write them; the relevant
documents of the compound are the union of both questions' documents, and each part keeps
its own, so a run can tell whether *both* parts were answered.

- Japanese (JSQuAD `test` split): pairs about different paragraphs, joined as
  「Q1。また、Q2？」 (half), or, when both questions end in か (embedded questions, which is
  how Japanese writes "tell me about X and about Y"), as 「Q1と、Q2について教えて」.
- English (StackFAQ): pairs from different threads, joined as two sentences
  ("Q1? Q2?") or with "and" ("Q1, and q2?").

Nothing here reads the decomposer: the sets are fixed by the seed and the join forms, so the
decomposer is measured on them, not fitted to them. Run `python bench/compound_sets.py` to
print the sizes and a sample.
"""

from __future__ import annotations

import csv
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalsets import EvalSet, eval_dir, load_set  # noqa: E402

SEED = 20261201
PER_LANGUAGE = 500
_TRAILING = re.compile(r"[\s。．.？?！!]+$")
_THREAD = re.compile(r"^(t\d+)")


@dataclass(frozen=True)
class CompoundQuestion:
    id: str
    text: str
    form: str
    parts: tuple[str, str]  # the two original questions, in order
    part_qrels: tuple[dict[str, int], dict[str, int]]  # each part's relevant documents

    @property
    def qrels(self) -> dict[str, int]:
        merged = dict(self.part_qrels[0])
        for doc, grade in self.part_qrels[1].items():
            merged[doc] = max(grade, merged.get(doc, 0))
        return merged


def _bare(question: str) -> str:
    return _TRAILING.sub("", question.strip())


def jsquad_split_ids(split: str = "test") -> set[str]:
    with (eval_dir() / "jsquad-ja" / "query-split.tsv").open(encoding="utf-8") as handle:
        return {row["query-id"] for row in csv.DictReader(handle, delimiter="\t") if row["jglue-split"] == split}


def japanese_compounds(data: EvalSet, *, count: int = PER_LANGUAGE, seed: int = SEED, split: str = "test"
                       ) -> list[CompoundQuestion]:
    """Pairs of JSQuAD questions of `split` ("test"; "valid" for fitting) whose relevant paragraphs differ."""
    rng = random.Random(seed)
    split_ids = jsquad_split_ids(split)
    queries = [q for q in data.queries if q["_id"] in split_ids]
    embedded = [q for q in queries if _bare(q["text"]).endswith("か")]
    out: list[CompoundQuestion] = []
    while len(out) < count:
        form = "mata" if len(out) % 2 == 0 else "to_nitsuite"
        pool = queries if form == "mata" else embedded
        first, second = rng.sample(pool, 2)
        if set(data.qrels[first["_id"]]) & set(data.qrels[second["_id"]]):
            continue
        a, b = _bare(first["text"]), _bare(second["text"])
        text = f"{a}。また、{b}？" if form == "mata" else f"{a}と、{b}について教えて"
        out.append(_compound(f"ja{len(out)}", text, form, first, second, data))
    return out


def english_compounds(data: EvalSet, *, count: int = PER_LANGUAGE, seed: int = SEED) -> list[CompoundQuestion]:
    """Pairs of StackFAQ questions from different threads (of other sets, e.g. SciFact train for
    fitting: pairs whose relevant documents differ)."""
    rng = random.Random(seed)
    out: list[CompoundQuestion] = []
    while len(out) < count:
        first, second = rng.sample(data.queries, 2)
        threads = [_THREAD.match(q["_id"]) for q in (first, second)]
        if all(threads) and threads[0].group(1) == threads[1].group(1):
            continue
        if set(data.qrels[first["_id"]]) & set(data.qrels[second["_id"]]):
            continue
        a, b = _bare(first["text"]), _bare(second["text"])
        if len(out) % 2 == 0:
            form, text = "two_sentences", f"{a}? {b[:1].upper()}{b[1:]}?"
        else:
            form, text = "and", f"{a}, and {b[:1].lower()}{b[1:]}?"
        out.append(_compound(f"en{len(out)}", text, form, first, second, data))
    return out


def _compound(qid: str, text: str, form: str, first: dict, second: dict, data: EvalSet) -> CompoundQuestion:
    return CompoundQuestion(
        id=qid,
        text=text,
        form=form,
        parts=(first["text"], second["text"]),
        part_qrels=(dict(data.qrels[first["_id"]]), dict(data.qrels[second["_id"]])),
    )


def main() -> None:
    for name, build in (("jsquad-ja", japanese_compounds), ("stackfaq-en", english_compounds)):
        questions = build(load_set(name))
        forms: dict[str, int] = {}
        for q in questions:
            forms[q.form] = forms.get(q.form, 0) + 1
        print(f"{name}: {len(questions)} compound questions {forms}")
        for q in questions[:4]:
            print(f"  {q.id} [{q.form}] {q.text}")


if __name__ == "__main__":
    main()
