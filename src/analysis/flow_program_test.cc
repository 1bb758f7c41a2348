#include "analysis/flow_program.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

// The reading of the flow records (docs/callgraph.md, "Flow facts"): what a well-formed record gives, and
// which malformed records are skipped whole.

TEST(FlowProgramTest, ScopesStatementsAndCallsAreRead) {
  FlowProgram p;
  p.AddFile("pkg/mod.py",
            "s 1 0 c Session 3 9 1\n"
            "s 2 1 f get 4 5 0\n"
            "p 2 self n ? ?\n"
            "p 2 url n N str Q %\n"
            "A 0 12 N s C 12 4 1 1 N Session N url timeout V None\n"
            "r 2 5 A send N self\n");
  p.Finish();
  ASSERT_EQ(p.scopes.size(), 3u);
  EXPECT_EQ(p.scopes[1].full_name, "pkg.mod.Session");
  EXPECT_EQ(p.scopes[2].qualname, "Session.get");
  EXPECT_EQ(p.scopes[2].line, 4);
  EXPECT_EQ(p.scopes[2].end_line, 5);
  ASSERT_EQ(p.scopes[2].params.size(), 2u);
  EXPECT_EQ(p.NameOf(p.scopes[2].params[1].name), "url");
  EXPECT_EQ(p.scopes[2].params[0].annotation, -1);
  const FlowExpr& annotation = p.exprs[static_cast<size_t>(p.scopes[2].params[1].annotation)];
  EXPECT_EQ(p.NameOf(annotation.name), "str");
  EXPECT_EQ(p.NameOf(p.exprs[static_cast<size_t>(p.scopes[2].params[1].default_value)].name), "");  // Q %
  ASSERT_EQ(p.call_exprs.size(), 1u);
  const FlowExpr& call = p.exprs[static_cast<size_t>(p.call_exprs[0])];
  EXPECT_EQ(call.line, 12);
  EXPECT_EQ(call.col, 4);
  EXPECT_EQ(call.npos, 1);
  ASSERT_EQ(call.kids.size(), 3u);
  EXPECT_EQ(p.NameOf(p.exprs[static_cast<size_t>(call.kids[1])].name), "url");
  ASSERT_EQ(call.kw.size(), 1u);
  EXPECT_EQ(p.NameOf(call.kw[0]), "timeout");
  // The two `def`/`class` bindings, the assignment and the return.
  ASSERT_EQ(p.statements.size(), 4u);
  EXPECT_TRUE(p.statements[0].straight);
  EXPECT_FALSE(p.statements[1].straight);
  EXPECT_EQ(p.statements[2].kind, 'a');
  EXPECT_TRUE(p.statements[2].straight);
  EXPECT_EQ(p.statements[3].kind, 'r');
  EXPECT_EQ(p.statements[3].scope, 2);
}

TEST(FlowProgramTest, RepeatedSpacesSeparateLikeOne) {
  FlowProgram p;
  p.AddFile("m.py", "a  0 3   N x  K 1\n");
  ASSERT_EQ(p.statements.size(), 1u);
  EXPECT_EQ(p.statements[0].line, 3);
  EXPECT_EQ(p.NameOf(p.exprs[static_cast<size_t>(p.statements[0].b)].name), "i:1");
}

TEST(FlowProgramTest, NumbersAreDecimalIntsWithNothingElse) {
  FlowProgram p;
  p.AddFile("m.py",
            "e 0 007 N a\n"            // leading zeros: line 7
            "e 0 2147483647 N b\n"     // the largest int
            "e 0 2147483648 N c\n"     // over: skipped
            "e 0 +5 N d\n"             // no sign but '-': skipped
            "e 0 5x N e\n"             // trailing text: skipped
            "e 0 -3 N f\n"             // a negative number reads
            "e 0 00000000012 N g\n");  // more digits than an int has, still 12
  ASSERT_EQ(p.statements.size(), 4u);
  EXPECT_EQ(p.statements[0].line, 7);
  EXPECT_EQ(p.statements[1].line, 2147483647);
  EXPECT_EQ(p.statements[2].line, -3);
  EXPECT_EQ(p.statements[3].line, 12);
}

TEST(FlowProgramTest, MalformedRecordsAreSkipped) {
  FlowProgram p;
  p.AddFile("m.py",
            "e 0\n"                          // no line
            "e 0 4\n"                        // no expression
            "e 9 4 N x\n"                    // no scope 9
            "ee 0 4 N x\n"                   // a kind of two letters
            "s 2 0 f g 1 2 1\n"              // scope 2 before scope 1
            "s 1 0 f g 1\n"                  // no end line
            "p 0 x\n"                        // no parameter kind
            "i 0 3 x\n"                      // no import path
            "h 0 3 4 5 0 0\n"                // no test text
            "k 0 3 1 2 e 50 N ValueError\n"  // more types than the record has tokens: none read
            "k 0 3 1 2 x 1 N ValueError\n"   // no such form
            "k 0 3 1 2 e 2 C 3 1 0 0\n"      // a call (its callee missing) as the first type, no second
            "C 0 1 1 0 0 N f\n");            // not a record kind
  EXPECT_EQ(p.scopes.size(), 1u);
  EXPECT_TRUE(p.statements.empty());
  EXPECT_TRUE(p.scopes[0].params.empty());
  EXPECT_TRUE(p.guards.empty());
  EXPECT_TRUE(p.catches.empty());
  // Only the last `k` record read an expression (its first type) before failing.
  EXPECT_EQ(p.exprs.size(), 1u);
  EXPECT_EQ(p.call_exprs.size(), 1u);
}

TEST(FlowProgramTest, GuardsAndCatchesAreRead) {
  FlowProgram p;
  p.AddFile("m.py",
            "h 0 3 4 9 1 0 x%20is%20None\n"
            "k 0 10 5 8 r 2 N ValueError A Error N mod\n"
            "k 0 10 5 8 s A suppress N contextlib 1 N KeyError\n");
  ASSERT_EQ(p.guards.size(), 1u);
  EXPECT_EQ(p.guards[0].text, "x is None");
  EXPECT_TRUE(p.guards[0].negated);
  EXPECT_FALSE(p.guards[0].in_loop);
  ASSERT_EQ(p.catches.size(), 2u);
  EXPECT_EQ(p.catches[0].form, 'r');
  EXPECT_EQ(p.catches[0].types.size(), 2u);
  EXPECT_EQ(p.catches[1].form, 's');
  EXPECT_EQ(p.NameOf(p.exprs[static_cast<size_t>(p.catches[1].callee)].name), "suppress");
  ASSERT_EQ(p.catches[1].types.size(), 1u);
}

TEST(FlowProgramTest, NamesAreInternedOnce) {
  FlowProgram p;
  const int a = p.Intern("alpha");
  EXPECT_EQ(p.Intern(std::string("alp") + "ha"), a);
  EXPECT_NE(p.Intern("beta"), a);
  EXPECT_EQ(p.FindName("alpha"), a);
  EXPECT_EQ(p.FindName("gamma"), -1);
  EXPECT_EQ(p.NameOf(a), "alpha");
}

}  // namespace
}  // namespace errdex
