"""Scoresheets from Python (issue 41): `reconstruct` and `decide_sheets`
give the CLI's JSON objects, and the stub names their fields."""


import pytest

import verify_claim
from stub_fields import present, stub_fields
from verify_claim import InputError

RUY_EN = "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf5\n5. O-O Be7\n"
RUY_RU = "1. e4 e5\n2. Кf3 Кc6\n3. Сb5 a6\n4. Сa4 Кf6\n5. О-О Сe7\n"


def test_reconstruct_two_sheets(tmp_path):
    path = tmp_path / "ru.txt"
    path.write_text(RUY_RU, encoding="utf-8")
    r = verify_claim.reconstruct([("en.txt", RUY_EN), path], candidates=3)
    assert r["notation"] == ["en", "ru"]
    assert r["readings"][0]["repairs"] == [{"ply": 8, "sheet": 1, "written": "Nf5", "read": "Nf6"}]
    assert r["discrepancies"] == [{"ply": 8, "sheet1": "Nf5", "sheet2": "Кf6"}]
    assert r["clear"] is True
    assert len(r["readings"]) <= 3
    fields = stub_fields()
    assert fields["Reconstruction"] == list(r)
    assert fields["Reading"] == list(r["readings"][0])
    assert fields["Repair"] == list(r["readings"][0]["repairs"][0])
    assert fields["Discrepancy"] == list(r["discrepancies"][0])
    assert fields["SearchInfo"] == list(r["search"])


def test_decide_sheets():
    sheet = b"1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Nh1 Ng8\n"
    c = verify_claim.decide_sheets([sheet])
    assert c["valid"] is True and c["depends_on_reading"] is False
    assert c["reading"]["repairs"][0]["written"] == "Nh1"
    fields = stub_fields()
    assert present(fields["SheetClaimResult"], c) == list(c)
    assert fields["SheetReading"] == list(c["reading"])


def test_bad_sheets():
    with pytest.raises(InputError) as e:
        verify_claim.reconstruct([("d.txt", "1. P-K4 P-K4\n")])
    assert (e.value.file, e.value.line, e.value.column) == ("d.txt", 1, 4)
    assert "descriptive" in e.value.message
    with pytest.raises(ValueError):
        verify_claim.reconstruct([b"1. e4"], notation="xx")
    with pytest.raises(TypeError):
        verify_claim.reconstruct("1. e4 e5")
