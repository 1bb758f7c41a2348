// Helpers for tests that build fixture trees and git repositories in a temporary directory: shell
// quoting, running a command, running git with a configuration isolated from the user's, writing files.
// Header-only and for tests only (GoogleTest assertions report failures).
//
// Threading: each call is independent; popen is used, so do not call from many threads at once.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace errdex::testing_util {

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

inline std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Runs COMMAND with sh; returns its exit status and fills *OUTPUT with stdout and stderr.
inline int Shell(const std::string& command, std::string* output) {
  output->clear();
  FILE* pipe = ::popen(("{ " + command + "\n} 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output->append(buffer, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs "git ARGS" in DIR with a configuration isolated from the user's; returns its trimmed output.
// ARGS is shell text: quote hostile operands with ShellQuote.
inline std::string Git(const std::string& dir, const std::string& args) {
  const std::string command =
      "unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CEILING_DIRECTORIES; "
      "export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com "
      "GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_CONFIG_COUNT=5 "
      "GIT_CONFIG_KEY_0=init.defaultBranch GIT_CONFIG_VALUE_0=main GIT_CONFIG_KEY_1=core.symlinks "
      "GIT_CONFIG_VALUE_1=true GIT_CONFIG_KEY_2=commit.gpgsign GIT_CONFIG_VALUE_2=false "
      "GIT_CONFIG_KEY_3=tag.gpgsign GIT_CONFIG_VALUE_3=false GIT_CONFIG_KEY_4=gc.auto GIT_CONFIG_VALUE_4=0; "
      "cd " +
      ShellQuote(dir) + " && git " + args;
  std::string output;
  const int status = Shell(command, &output);
  EXPECT_EQ(status, 0) << "git " << args << " in " << dir << ":\n" << output;
  return Trim(output);
}

inline void WriteFile(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  ASSERT_TRUE(out.good()) << path;
}

}  // namespace errdex::testing_util
