import re
import unittest
import pytest
import pytest as pt
from pytest import raises as expect_raises

def test_with():
    with pytest.raises(CartError, match="unknown SKU 'kiwi'"):
        add("kiwi")
    with pt.raises((KeyError, errors.Missing)) as info:
        get()
    with expect_raises(ValueError, match=r"only \d+ left"), open("x"):
        take()
    with pytest.raises(ValueError, match=re.escape("a.b (c)")):
        take()
    with pytest.raises(ValueError, match=f"got {x}"):
        take()
    pytest.raises(TypeError, int, "x")
    pytest.raises(TypeError)  # neither form: nothing to record

class T(unittest.TestCase):
    def test_unittest(self):
        with self.assertRaises(ValueError):
            f(0)
        with self.assertRaisesRegex(TypeError, "must be .* not list") as cm:
            f([])
        self.assertRaises(KeyError, f, "k")
        self.assertRaisesRegex(OSError, "cannot open", f, "/")
        self.assertRaisesRegexp(OSError, expected_regex="old name", callable=f)
        other.raises(ValueError)
