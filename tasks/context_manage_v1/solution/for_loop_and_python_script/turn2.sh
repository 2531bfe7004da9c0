python3 - <<'PY'
import pathlib
import re

for path in sorted(pathlib.Path("services").glob("*.py")):
    text = path.read_text()
    if "0.07" not in text:
        continue
    new = re.sub(r"^(\w+) = 0\.07$", r"from config import TAX_RATE as \1", text, flags=re.M)
    if "= 0.07)" in new:
        new = new.replace("= 0.07)", "= TAX_RATE)")
        new = re.sub(r"^(from config import .*)$", r"\1, TAX_RATE", new, count=1, flags=re.M)
    path.write_text(new)
    print("fixed", path)
PY