#include "analysis/lineage.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

LineageSite Site(const std::string& id, const std::string& path, const std::string& module, const std::string& function,
                 const std::string& type, const std::string& normalized, int ordinal = 0) {
  LineageSite s;
  s.error_id = id;
  s.path = path;
  s.module = module;
  s.function = function;
  s.type = type;
  s.normalized = normalized;
  s.ordinal = ordinal;
  return s;
}

// "old id -> new id (changes)" for each link, in the order returned.
std::vector<std::string> Describe(const std::vector<LineageSite>& a, const std::vector<LineageSite>& b,
                                  const std::vector<LineageLink>& links) {
  std::vector<std::string> out;
  for (const LineageLink& l : links) {
    out.push_back((l.from ? a[*l.from].error_id : "-") + " -> " + (l.to ? b[*l.to].error_id : "-") + " (" + l.changes +
                  ")");
  }
  return out;
}

TEST(LineageTest, SameIdRewordMoveRenameRemoveAdd) {
  const std::vector<LineageSite> old_sites = {
      Site("a", "pkg/core.py", "pkg.core", "connect", "ValueError", "port must be positive, got {}"),
      Site("b", "pkg/core.py", "pkg.core", "connect", "ValueError", "host is required", 1),
      Site("c", "pkg/core.py", "pkg.core", "load", "FileNotFoundError", "no config at {}"),
      Site("d", "pkg/core.py", "pkg.core", "legacy", "RuntimeError", "legacy mode is deprecated"),
      Site("e", "pytorch_lightning/trainer/trainer.py", "pytorch_lightning.trainer.trainer", "Trainer.fit",
           "MisconfigurationException", "`fit` needs a model, got {}"),
  };
  const std::vector<LineageSite> new_sites = {
      Site("a2", "src/pkg/core.py", "pkg.core", "connect", "ValueError", "port must be a non-negative integer, got {}"),
      Site("b", "src/pkg/core.py", "pkg.core", "connect", "ValueError", "host is required", 1),
      Site("c2", "src/pkg/core.py", "pkg.core", "load_config", "FileNotFoundError", "no config at {}"),
      Site("e2", "src/lightning/pytorch/trainer/trainer.py", "lightning.pytorch.trainer.trainer", "Trainer.fit",
           "MisconfigurationException", "`fit` needs a LightningModule, got {}"),
      Site("f", "src/pkg/core.py", "pkg.core", "fresh", "KeyError", "fresh"),
  };
  const std::map<std::string, std::string> renames = {{"pkg/core.py", "src/pkg/core.py"}};
  const std::vector<LineageLink> links = MatchLineage(old_sites, new_sites, renames);
  EXPECT_EQ(Describe(old_sites, new_sites, links),
            (std::vector<std::string>{"b -> b (moved)", "e -> e2 (reworded,moved)", "a -> a2 (reworded,moved)",
                                      "c -> c2 (moved,renamed)", "d -> - (removed)", "- -> f (added)"}));
  for (const LineageLink& l : links) {
    EXPECT_GT(l.confidence, 0.5);
    EXPECT_LE(l.confidence, 1.0);
  }
}

TEST(LineageTest, UnrelatedErrorsAreNotLinked) {
  const std::vector<LineageSite> old_sites = {
      Site("a", "x.py", "x", "f", "ValueError", "bad value {}"),
      Site("b", "y.py", "y", "g", "TypeError", "expected a str"),
  };
  const std::vector<LineageSite> new_sites = {
      Site("c", "z.py", "z", "h", "ValueError", "the cache directory {} is not writable"),
      Site("d", "y.py", "y", "g2", "KeyError", "no such key"),
  };
  EXPECT_EQ(Describe(old_sites, new_sites, MatchLineage(old_sites, new_sites, {})),
            (std::vector<std::string>{"a -> - (removed)", "b -> - (removed)", "- -> c (added)", "- -> d (added)"}));
}

TEST(LineageTest, PositionAmongTheFunctionsRaisesLinksASilentRaise) {
  const std::vector<LineageSite> old_sites = {Site("a", "x.py", "x", "f", "ValueError", "", 0),
                                              Site("b", "x.py", "x", "f", "TypeError", "", 1)};
  const std::vector<LineageSite> new_sites = {Site("a2", "x.py", "x", "f", "ValueError", "", 0),
                                              Site("b2", "x.py", "x", "f", "TypeError", "", 1)};
  EXPECT_EQ(Describe(old_sites, new_sites, MatchLineage(old_sites, new_sites, {})),
            (std::vector<std::string>{"a -> a2 ()", "b -> b2 ()"}));
}

TEST(LineageTest, SitesOfARevisionArePrimaryWithOrdinals) {
  std::vector<SiteRow> rows(4);
  rows[0].error_id = "a", rows[0].path = "p/m.py", rows[0].line = 9, rows[0].function = "f";
  rows[1].error_id = "b", rows[1].path = "p/m.py", rows[1].line = 3, rows[1].function = "f";
  rows[2].error_id = "a", rows[2].path = "p/m.py", rows[2].line = 20, rows[2].function = "g";
  rows[3].error_id = "t", rows[3].path = "tests/t.py", rows[3].line = 1, rows[3].function = "t", rows[3].is_test = true;
  rows[1].type_qualified = "pkg.errors.Boom";
  rows[0].template_text = "x {value!r}";
  const std::vector<LineageSite> sites = LineageSitesOf(rows, {{"p/m.py", "p.m"}});
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].error_id, "b");
  EXPECT_EQ(sites[0].type, "Boom");
  EXPECT_EQ(sites[0].module, "p.m");
  EXPECT_EQ(sites[1].error_id, "a");
  EXPECT_EQ(sites[1].line, 9);
  EXPECT_EQ(sites[1].ordinal, 1);
  EXPECT_EQ(sites[1].normalized, "x {}");
}

TEST(LineageTest, TemplateSimilarity) {
  EXPECT_DOUBLE_EQ(TemplateSimilarity("a b c", "a b c"), 1.0);
  EXPECT_DOUBLE_EQ(TemplateSimilarity("a b", "c d"), 0.0);
  EXPECT_DOUBLE_EQ(TemplateSimilarity("a b c d", "a b x y"), 0.5);
  EXPECT_DOUBLE_EQ(TemplateSimilarity("", ""), 1.0);
}

}  // namespace
}  // namespace errdex
