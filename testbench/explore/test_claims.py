"""ssdvp_explore.claims: a page's claims checked on its data, false ones and unchecked ones told apart."""
from ssdvp_explore import claims


def test_false_and_unchecked_claims_are_told_apart():
    data = {"a": 2.0, "b": 1.0, "none": None, "zero": 0.0}
    c = [("a above b", lambda d: d["a"] > d["b"]),
         ("b above a", lambda d: d["b"] > d["a"]),
         ("c above a", lambda d: d["c"] > d["a"]),            # no row: KeyError
         ("none above a", lambda d: d["none"]["x"] > 0),      # an absent field (None): TypeError
         ("a over zero", lambda d: d["a"] / d["zero"] > 1)]   # a zero base
    false, unchecked = claims.check(c, data)
    assert false == ["b above a"]
    assert [t for t, _ in unchecked] == ["c above a", "none above a", "a over zero"]
    assert "KeyError('c')" in unchecked[0][1]


def test_several_data_arguments_reach_the_predicate():
    assert claims.check([("x below y", lambda x, y: x < y)], 1, 2) == ([], [])
    assert claims.check([("x below y", lambda x, y: x < y)], 2, 1) == (["x below y"], [])
