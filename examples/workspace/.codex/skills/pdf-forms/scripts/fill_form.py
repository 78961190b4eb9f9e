"""List or fill the AcroForm fields of a PDF.

python fill_form.py fields FORM.pdf
python fill_form.py fill FORM.pdf VALUES.json OUT.pdf [--flatten]
"""

import json
import sys

from pypdf import PdfReader, PdfWriter


def list_fields(path: str) -> int:
    fields = PdfReader(path).get_fields() or {}
    for name, field in fields.items():
        states = field.get("/_States_", "")
        print(f"{name}\t{field.get('/FT')}\t{field.get('/V')}\t{states}")
    return 0


def fill(path: str, values_path: str, out_path: str, flatten: bool) -> int:
    with open(values_path, encoding="utf-8") as f:
        values = json.load(f)
    writer = PdfWriter(clone_from=path)
    for page in writer.pages:
        # flatten (pypdf 5+) draws the values into the page and removes the fields
        writer.update_page_form_field_values(page, values, auto_regenerate=False, flatten=flatten)
    with open(out_path, "wb") as f:
        writer.write(f)
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "fields":
        return list_fields(argv[1])
    if len(argv) in (4, 5) and argv[0] == "fill":
        return fill(argv[1], argv[2], argv[3], flatten="--flatten" in argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
