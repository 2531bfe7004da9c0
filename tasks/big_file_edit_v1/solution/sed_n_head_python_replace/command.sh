python3 - <<'PY'
from pathlib import Path

page = Path("site/index.html")
text = page.read_text()
edits = [
    ("<title>Harbor Ops Handbook</title>", "<title>Harbor Operations Handbook</title>"),
    ("--accent: #0e7490;", "--accent: #c2410c;"),
    ('<li><a href="/incidents">Incidents</a></li>', '<li><a href="/incidents">Incidents</a></li>\n        <li><a href="/runbooks">Runbooks</a></li>'),
    ('href="/policies/retension"', 'href="/policies/retention"'),
    ("On-call phone: +31 10 555 0142", "On-call phone: +31 10 555 0199"),
]
for old, new in edits:
    assert text.count(old) == 1, old
    text = text.replace(old, new)
page.write_text(text)
print("5 edits applied,", len(text), "chars")
PY