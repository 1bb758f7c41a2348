// Reworded messages found by their words (docs/matching.md, tier "approximate: similar words"): a fixture
// client library whose current message is several lines assembled in a local and handed to a helper that
// appends a request id (the shape of huggingface_hub's `hf_raise_for_status` and `_format`), indexed; a paste of
// an older release's one-line wording, with the URL and request id its placeholders held, finds the raise.
#include <gtest/gtest.h>

#include <string>

#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kErrors = R"py(class RegistryError(Exception):
    def __init__(self, message, response=None):
        super().__init__(message)
        self.response = response


class ArtifactNotFoundError(RegistryError):
    pass


class QuotaExceededError(RegistryError):
    pass
)py";

const char* const kClient = R"py(from .errors import ArtifactNotFoundError, QuotaExceededError, RegistryError


def _format(error_type, message, response):
    request_id = response.headers.get("X-Request-Id")
    if request_id:
        message = message + f" (Request ID: {request_id})"
    return error_type(message, response)


def raise_for_status(response):
    if response.status_code == 404:
        message = (
            f"{response.status_code} Client Error."
            + "\n\n"
            + f"Artifact Not Found for url: {response.url}."
            + "\nPlease make sure you specified the correct artifact name and registry."
            + "\nIf you are trying to reach a restricted artifact, make sure you are logged in and your token"
            " has the required scopes."
            + "\nFor more details, see https://registry.example.org/docs/authentication"
        )
        raise _format(ArtifactNotFoundError, message, response)
    if response.status_code == 429:
        message = f"{response.status_code} Too Many Requests: the quota of {response.url} is used up."
        raise _format(QuotaExceededError, message, response)
    raise RegistryError(f"{response.status_code} error for url: {response.url}")
)py";

class DriftedWordingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fixture_ = new IndexedFixture();
    fixture_->Write("registry/__init__.py", "");
    fixture_->Write("registry/errors.py", kErrors);
    fixture_->Write("registry/client.py", kClient);
    std::string error;
    ASSERT_TRUE(fixture_->Index("acme/registry", &error)) << error;
  }
  static void TearDownTestSuite() {
    delete fixture_;
    fixture_ = nullptr;
  }
  static IndexedFixture* fixture_;
};

IndexedFixture* DriftedWordingTest::fixture_ = nullptr;

TEST_F(DriftedWordingTest, AnOlderOneLineWordingWithItsValuesFindsTheRewordedRaise) {
  // The words of the URL and of the request id are what placeholders held, not wording: without them, nearly
  // every word of the message is the template's (without them discounted, less than half of the message is).
  Explanation e = fixture_->Explain(
      "registry.errors.ArtifactNotFoundError: 404 Client Error: Artifact Not Found for url: "
      "https://registry.example.org/acme/tools/blob/main/setup.cfg. If the artifact is private, make sure you "
      "are logged in. (Request ID: Xb7QzR9kLmN2pQwT)");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.path, "registry/client.py");
  EXPECT_EQ(e.matches[0].site.line, 22);
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kApproximate);
  EXPECT_NE(e.matches[0].why[0].find("similar words"), std::string::npos) << e.matches[0].why[0];
}

TEST_F(DriftedWordingTest, ValuesAloneAreNoSimilarWording) {
  // The same URL and id in a message of the same class whose words are not the template's: no match by words.
  Explanation e = fixture_->Explain(
      "registry.errors.ArtifactNotFoundError: https://registry.example.org/artifact/not/found/for/url/private "
      "(Request ID: artifact-private-logged-in-4471)");
  for (const ExplainMatch& m : e.matches) {
    EXPECT_EQ(m.why[0].find("similar words"), std::string::npos) << m.why[0];
  }
}

}  // namespace
}  // namespace errdex
