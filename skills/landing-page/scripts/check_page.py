#!/usr/bin/env python3
"""check_page: does a landing page follow the landing-page skill's rules? Prints OK or the problems."""
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.features = 0
        self.tags: list[str] = []
        self.hero_h1 = False
        self.in_hero = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        self.tags.append(tag)
        if tag == "section" and "feature" in classes:
            self.features += 1
        if tag == "header" and "hero" in classes:
            self.in_hero += 1
        if tag == "h1" and self.in_hero:
            self.hero_h1 = True

    def handle_endtag(self, tag):
        if tag == "header" and self.in_hero:
            self.in_hero -= 1


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_page.py PAGE.html", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        print(f"cannot read the page: {err}")
        return 1
    page = Page()
    page.feed(text)
    problems = []
    if not page.hero_h1:
        problems.append('no <h1> inside <header class="hero">')
    if page.features != 3:
        problems.append(f'{page.features} <section class="feature"> cards, expected exactly 3')
    if "footer" not in page.tags:
        problems.append("no <footer>")
    if page.tags.count("style") != 1:
        problems.append("expected exactly one <style> element")
    if "script" in page.tags:
        problems.append("no JavaScript allowed")
    if "http://" in text or "https://" in text:
        problems.append("the page refers to an http(s) URL")
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
