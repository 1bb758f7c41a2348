from sqlalchemy import testing
from sqlalchemy.testing import assert_raises_message, expect_raises_message

def test_helpers(connection):
    assert_raises_message(exc.ArgumentError, r"Column '\w+' not found", go, 1)
    testing.assert_raises(KeyError, go)
    assert_raises_message((exc.A, exc.B), msg="wrapped", callable_=go)
    assert_raises(KeyError)
    with expect_raises_message(exc.InvalidRequestError, "Can't reconnect until invalid"):
        connection.execute()
    with testing.expect_raises(exc.NoSuchTableError):
        reflect()
    with expect_raises_message(exc.ArgumentError, pattern):
        reflect()
    with assert_raises_message(ValueError, "nope", go):
        pass
    expect_raises(ValueError, go)

class T(TestCase):
    def test_django(self):
        with self.assertRaisesMessage(ValueError, "Can't (re)use 'x.y' [1]"):
            f()
        self.assertRaisesMessage(TypeError, "a+b", f, 1)
        self.assertRaisesMessage(TypeError, message, f, 1)
        self.assert_raises_message(KeyError, "k.*", f)
