#!/usr/bin/env python3
"""The articles ilaj serves as Meilisearch documents, for scripts/load/compare-meilisearch.sh.

Every Markdown file under CONTENT/{ar,fr,hi,en}/ becomes one document: `id` (language and
file stem, e.g. `fr-mps-oom`, with anything outside A-Z a-z 0-9 - _ replaced by `_`, as
Meilisearch ids require), `lang`, `title` (the front matter's `title`) and `body` (the text
after the front matter). Prints a JSON array on standard output. Standard library only.
Usage: python3 scripts/load/meili_documents.py [CONTENT folder, default content] > documents.json
"""
import json
import re
import sys
from pathlib import Path

LANGS = ("ar", "fr", "hi", "en")


def front_matter(text):
    """(front matter lines, body) of an article that starts with a `---` line."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return [], text
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return lines[1:i], "\n".join(lines[i + 1:])
    return [], text


def title_of(lines):
    for line in lines:
        if line.startswith("title:"):
            value = line[len("title:"):].strip()
            if value.startswith('"'):
                # A YAML double-quoted string; the articles only use JSON's escapes in them.
                return json.loads(value)
            if value.startswith("'") and value.endswith("'"):
                return value[1:-1].replace("''", "'")
            return value
    return ""


def main():
    content = Path(sys.argv[1] if len(sys.argv) > 1 else "content")
    documents = []
    for lang in LANGS:
        for path in sorted((content / lang).rglob("*.md")):
            lines, body = front_matter(path.read_text(encoding="utf-8"))
            documents.append({
                "id": re.sub(r"[^A-Za-z0-9_-]", "_", f"{lang}-{path.stem}"),
                "lang": lang,
                "title": title_of(lines),
                "body": body.strip(),
            })
    if len({d["id"] for d in documents}) != len(documents):
        sys.exit("two articles have the same id")
    json.dump(documents, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
