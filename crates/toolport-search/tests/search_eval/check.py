#!/usr/bin/env python3
"""Validate the Toolport tool-search evaluation set and print its counts.

Standard library only. Run from anywhere:  python3 check.py  [--verbose]
Exit status 0 when every check passes, 1 otherwise.
"""
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = ["filesystem", "memory", "everything", "github", "gitlab", "git", "fetch", "time",
           "playwright", "puppeteer", "slack", "sqlite", "google-maps", "brave-search",
           "redis", "postgres"]
FIELDS = {"id", "query", "expected", "phrasing", "lookalike"}
PHRASINGS = {"own-words", "other-words"}
# Order in which the split rule visits the strata (see README, "Split rule").
STRATA = [("other-words", True), ("other-words", False), ("own-words", True), ("own-words", False)]

# Words ignored by the overlap checks: function words only.
STOP = set("""a an the to of in on at by with and or as for from into onto is are be it its
this that these those my our your me i we you so not no do does did what which who how
when where any all just up out""".split())
# Platform names: saying *where* ("on GitHub", "in Redis") is allowed in other-words queries
# unless the word is part of the expected tool's own name (e.g. slack_*, puppeteer_*, git_*).
PLATFORM = set("github gitlab slack sqlite redis postgres postgresql google brave playwright puppeteer".split())
# Generic words ignored by the description note only (never by the name check).
COMMON = set("page element text new only need without over whole".split())

SUFFIXES = ["ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "ly", "s", "e"]


def split_identifier(name):
    """snake_case, kebab-case and camelCase -> lower-case words."""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", name.lower()) if w]


def words(text):
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def stem(w):
    for suf in SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def same_stem(a, b):
    """Conservative: equal stems, or one stem a prefix of the other sharing >= 5 letters."""
    sa, sb = stem(a), stem(b)
    if sa == sb:
        return True
    short, long_ = sorted((sa, sb), key=len)
    return len(short) >= 5 and long_.startswith(short)


def overlaps(query_words, target_words):
    hits = set()
    for q in query_words:
        if q in STOP or len(q) < 2:
            continue
        for t in target_words:
            if t in STOP:
                continue
            if same_stem(q, t):
                hits.add(q)
    return sorted(hits)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main():
    verbose = "--verbose" in sys.argv
    errors = []

    # ---- servers
    tools = {}  # "server/tool" -> tool object
    per_server = {}
    for sid in SERVERS:
        path = os.path.join(HERE, "servers", sid + ".json")
        if not os.path.exists(path):
            errors.append(f"missing servers/{sid}.json")
            continue
        d = load(path)
        if d.get("server") != sid:
            errors.append(f"servers/{sid}.json: server field is {d.get('server')!r}")
        for key in ("package", "version", "tools"):
            if key not in d:
                errors.append(f"servers/{sid}.json: no {key}")
        per_server[sid] = (d.get("package"), d.get("version"), len(d.get("tools", [])))
        for t in d.get("tools", []):
            extra = set(t) - {"name", "title", "description", "inputSchema", "annotations"}
            if extra:
                errors.append(f"{sid}/{t.get('name')}: unexpected keys {sorted(extra)}")
            key = f"{sid}/{t['name']}"
            if key in tools:
                errors.append(f"duplicate tool {key}")
            tools[key] = t

    # ---- queries
    halves = {}
    for half in ("tuning", "held_out"):
        path = os.path.join(HERE, "queries", half + ".json")
        halves[half] = load(path)
    # The blind set: written after the split, outside it (ids d001...).
    blind = load(os.path.join(HERE, "queries", "blind.json"))
    id_pattern = {"tuning": r"q\d{3}", "held_out": r"q\d{3}", "blind": r"[de]\d{3}"}

    seen_ids = {}
    seen_text = {}
    for half, qs in {**halves, "blind": blind}.items():
        for q in qs:
            if set(q) != FIELDS:
                errors.append(f"{half}: {q.get('id')}: fields {sorted(q)} != {sorted(FIELDS)}")
            qid = q.get("id")
            if not re.fullmatch(id_pattern[half], str(qid)):
                errors.append(f"{half}: bad id {qid!r}")
            if qid in seen_ids:
                errors.append(f"id {qid} in {seen_ids[qid]} and {half}")
            seen_ids[qid] = half
            norm = " ".join(words(q.get("query", "")))
            if norm in seen_text:
                errors.append(f"query text of {qid} repeats {seen_text[norm]}")
            seen_text[norm] = qid
            if q.get("phrasing") not in PHRASINGS:
                errors.append(f"{qid}: phrasing {q.get('phrasing')!r}")
            if not isinstance(q.get("lookalike"), bool):
                errors.append(f"{qid}: lookalike must be true or false")
            exp = q.get("expected", [])
            if not (1 <= len(exp) <= 3) or len(set(exp)) != len(exp):
                errors.append(f"{qid}: expected must list 1-3 distinct tools")
            for e in exp:
                if e not in tools:
                    errors.append(f"{qid}: expected tool {e!r} does not exist")

    # ---- the halves do not overlap (ids checked above; texts too)
    t_ids = {q["id"] for q in halves["tuning"]}
    h_ids = {q["id"] for q in halves["held_out"]}
    if t_ids & h_ids:
        errors.append(f"halves share ids {sorted(t_ids & h_ids)}")

    # ---- the split follows the rule
    allq = sorted(halves["tuning"] + halves["held_out"], key=lambda q: q["id"])
    assign = {}
    size = {"tuning": 0, "held_out": 0}
    for stratum in STRATA:
        items = [q for q in allq if (q["phrasing"], q["lookalike"]) == stratum]
        first = "tuning" if size["tuning"] <= size["held_out"] else "held_out"
        other = "held_out" if first == "tuning" else "tuning"
        for i, q in enumerate(items):
            h = first if i % 2 == 0 else other
            assign[q["id"]] = h
            size[h] += 1
    for half, qs in halves.items():
        for q in qs:
            if assign.get(q["id"]) != half:
                errors.append(f"{q['id']} is in {half} but the split rule puts it in {assign.get(q['id'])}")

    # ---- phrasing check: other-words queries must share no stem with the expected tools' names
    name_flags = []
    desc_notes = []
    for q in allq + blind:
        if q["phrasing"] != "other-words":
            continue
        qw = words(q["query"])
        for e in q["expected"]:
            server, name = e.split("/", 1)
            hits = overlaps(qw, split_identifier(name))
            if hits:
                name_flags.append((q["id"], e, hits))
            desc = tools[e].get("description") or ""
            dw = [w for w in words(desc) if w not in PLATFORM and w not in COMMON]
            dh = [h for h in overlaps([w for w in qw if w not in PLATFORM], dw)]
            if dh:
                desc_notes.append((q["id"], e, dh))
    for qid, e, hits in name_flags:
        errors.append(f"{qid}: other-words query shares name stems with {e}: {hits}")

    # ---- coverage
    all_expected = [e for q in allq for e in q["expected"]]
    distinct = set(all_expected)
    covered_servers = {e.split("/")[0] for e in distinct}
    for sid in SERVERS:
        if sid not in covered_servers:
            errors.append(f"server {sid} has no query")

    # ---- report
    print("servers:")
    for sid in SERVERS:
        if sid in per_server:
            pkg, ver, n = per_server[sid]
            print(f"  {sid:13s} {pkg} {ver}: {n} tools")
    print(f"tools in catalogue: {len(tools)}")
    n = len(allq)
    print(f"queries: {n} total")
    for half, qs in halves.items():
        ow = sum(q["phrasing"] == "other-words" for q in qs)
        la = sum(q["lookalike"] for q in qs)
        multi = sum(len(q["expected"]) > 1 for q in qs)
        print(f"  {half:9s} {len(qs):3d} queries, other-words {ow} ({100*ow/len(qs):.1f}%), "
              f"look-alike {la}, multi-tool expected {multi}, "
              f"distinct expected tools {len({e for q in qs for e in q['expected']})}")
    bow = sum(q["phrasing"] == "other-words" for q in blind)
    print(f"  blind     {len(blind):3d} queries, other-words {bow} ({100*bow/len(blind):.1f}%), "
          f"look-alike {sum(q['lookalike'] for q in blind)}, "
          f"distinct expected tools {len({e for q in blind for e in q['expected']})}")
    ow = sum(q["phrasing"] == "other-words" for q in allq)
    print(f"  all       other-words {ow} ({100*ow/n:.1f}%), look-alike {sum(q['lookalike'] for q in allq)}")
    print(f"distinct expected tools: {len(distinct)} of {len(tools)}; servers covered: {len(covered_servers)} of {len(SERVERS)}")
    print(f"phrasing check: other-words queries sharing a stem with an expected tool's name: {len(name_flags)}")
    print(f"phrasing note: other-words queries sharing a stem with an expected tool's description "
          f"(platform names aside): {len({d[0] for d in desc_notes})}"
          + (" (--verbose lists them)" if desc_notes and not verbose else ""))
    if verbose:
        for qid, e, hits in desc_notes:
            print(f"    {qid} {e}: {hits}")

    # thresholds from the brief
    if n < 140:
        errors.append(f"only {n} queries (need >= 140)")
    if abs(len(halves['tuning']) - len(halves['held_out'])) > 1:
        errors.append("halves differ in size by more than 1")
    if ow / n < 0.60:
        errors.append(f"other-words share {ow/n:.2f} < 0.60")
    if len(distinct) < 90:
        errors.append(f"only {len(distinct)} distinct expected tools (need >= 90)")
    if sum(q["lookalike"] for q in allq) < 20:
        errors.append("fewer than 20 look-alike queries")

    if errors:
        print(f"\nFAIL: {len(errors)} problem(s)")
        for e in errors:
            print("  - " + e)
        return 1
    print("\nOK: all checks pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
