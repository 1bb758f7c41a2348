// The test APIs that expect an exception (pytest.raises, unittest's assertRaises*, Django's
// assertRaisesMessage, SQLAlchemy's assert_raises* / expect_raises*), as data: src/python/data/raises_apis.tsv
// says how each is called, its statement forms and where its pattern is. The extractor asks this table.
//
// Threading: the table is parsed once, on first use, and read-only afterwards; thread-safe. Returned
// pointers live for the whole program.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

struct RaisesApiRule {
  std::string name;  // as called
  enum class CalledAs { kPytest, kAttribute, kNameOrAttribute } called_as = CalledAs::kAttribute;
  std::string api;                  // recorded as RaisesTest::kind
  bool call_form = true;            // usable as a call statement: `api(T, f, *args)`
  bool with_form = true;            // usable as a context manager: `with api(T):`
  std::string pattern_keyword;      // "" when the API takes no pattern
  bool pattern_positional = false;  // the pattern may also be the second positional argument
  bool substring = false;           // the pattern is a plain substring of the message, not a regular expression
};

// The rule for a call `x.NAME(...)` (ATTRIBUTE) or `NAME(...)`; null when NAME is no such API. A name of
// kind kPytest is returned for both; the caller checks that it is bound to pytest.
const RaisesApiRule* FindRaisesApi(std::string_view name, bool attribute);

// The rule whose recorded api is API ("pytest.raises"); null when none.
const RaisesApiRule* RaisesApiNamed(std::string_view api);

// Whether a call of CALLEE (as written, CallFact::callee: "pytest.warns", "self.assertEqual") is a call of
// the test framework's own API: an API of this table, pytest's `warns`, `deprecated_call`, `fail`, `skip`,
// `xfail`, `importorskip` and `exit`, or unittest's `self.assert*` and
// `self.fail`. Inside an expecting block such a call is the test's own check, not the code under test.
bool IsTestFrameworkCall(std::string_view callee);

}  // namespace errdex
