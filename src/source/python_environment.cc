#include "source/python_environment.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <nlohmann/json.hpp>

#include "source/source.h"

extern char** environ;

namespace errdex {

namespace {

constexpr size_t kMaxProbeOutput = 64u << 20;
constexpr int kProbeSeconds = 60;

// Run with `python -I -c`: lists the standard library's *.py files and, for each distribution (the first
// of a name on sys.path), its *.py files from RECORD, else from top_level.txt, relative to its location.
constexpr const char* kProbeScript = R"py(
import json, os, platform, sys, sysconfig
from importlib import metadata
SKIP = {"__pycache__", "site-packages", "dist-packages"}
def utf8(s):
    try:
        s.encode("utf-8")
        return True
    except UnicodeError:
        return False
def walk(root, rel):
    out = []
    for d, dirs, names in os.walk(os.path.join(root, rel) if rel else root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP and not os.path.islink(os.path.join(d, x)))
        for n in names:
            full = os.path.join(d, n)
            if n.endswith(".py") and os.path.isfile(full) and not os.path.islink(full):
                out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return out
def files_of(dist, location):
    py, other, source = [], 0, ""
    record = dist.read_text("RECORD")
    if record is not None and dist.files is not None:
        source = "RECORD"
        for f in dist.files:
            p = str(f).replace(os.sep, "/")
            full = os.path.join(location, p)
            if p.startswith("/") or ".." in p.split("/") or not os.path.isfile(full) or os.path.islink(full):
                continue
            if p.endswith(".py"):
                py.append(p)
            elif ".dist-info/" not in p and ".egg-info/" not in p and not p.endswith(".pyc"):
                other += 1
        return py, other, source
    top = dist.read_text("top_level.txt")
    if top is not None:
        source = "top_level.txt"
        for t in top.split():
            if not t or t.startswith(".") or "/" in t:
                continue
            if os.path.isdir(os.path.join(location, t)) and not os.path.islink(os.path.join(location, t)):
                py += walk(location, t)
            elif os.path.isfile(os.path.join(location, t + ".py")):
                py.append(t + ".py")
            else:
                other += 1
    return py, other, source
def main():
    env = {"executable": sys.executable, "version": platform.python_version(),
           "stdlib": sysconfig.get_paths()["stdlib"], "distributions": []}
    env["stdlib_files"] = sorted(f for f in walk(env["stdlib"], "") if utf8(f))
    seen = set()
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if not name or not utf8(name) or name.lower() in seen:
            continue
        seen.add(name.lower())
        location = str(dist.locate_file(""))
        py, other, source = files_of(dist, location)
        env["distributions"].append({"name": name, "version": dist.version or "", "location": location,
                                     "files": sorted(set(f for f in py if utf8(f))), "other_files": other,
                                     "files_from": source})
    json.dump(env, sys.stdout)
main()
)py";

// Runs ARGV, returns its standard output (at most kMaxProbeOutput bytes) in *OUT. The child is killed
// past the deadline. Its standard error is discarded except for the last line, kept for the message.
bool RunCapturing(const std::vector<std::string>& argv, std::string* out, std::string* error) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    *error = "cannot create a pipe";
    return false;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    *error = "cannot create a pipe";
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    *error = "cannot run " + argv[0] + ": " + std::string(strerror(spawned));
    return false;
  }
  std::string err_text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kProbeSeconds);
  bool too_long = false, too_much = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      too_long = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (pollfd& p : fds) {
      if (p.fd < 0 || (p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(p.fd, buffer, sizeof buffer);
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
        --open_fds;
        continue;
      }
      std::string& sink = p.fd == out_pipe[0] ? *out : err_text;
      sink.append(buffer, static_cast<size_t>(n));
      if (err_text.size() > 65536) err_text.erase(0, err_text.size() - 4096);
      if (out->size() > kMaxProbeOutput) too_much = true;
    }
    if (too_much) break;
  }
  for (pollfd& p : fds) {
    if (p.fd >= 0) close(p.fd);
  }
  if (too_long || too_much) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (too_long || too_much) {
    *error = argv[0] + (too_long ? " did not answer within " + std::to_string(kProbeSeconds) + " s"
                                 : " answered more than 64 MB");
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!err_text.empty() && (err_text.back() == '\n' || err_text.back() == '\r')) err_text.pop_back();
    const size_t last = err_text.rfind('\n');
    std::string last_line = last == std::string::npos ? err_text : err_text.substr(last + 1);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) last_line = "not found";
    *error = "cannot ask " + argv[0] + " for its environment" + (last_line.empty() ? "" : ": " + last_line);
    return false;
  }
  return true;
}

std::vector<std::string> SafePaths(const nlohmann::json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const nlohmann::json& p : list) {
    if (p.is_string() && IsSafeRelativePath(p.get<std::string>())) out.push_back(p.get<std::string>());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string StringField(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string NormalizeDistributionName(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

std::vector<VendoredPackage> FindVendoredPackages(const std::vector<std::string>& files) {
  std::vector<VendoredPackage> out;
  for (const std::string& f : files) {
    size_t start = 0;
    while (true) {
      const size_t slash = f.find('/', start);
      if (slash == std::string::npos) break;
      const std::string component = f.substr(start, slash - start);
      start = slash + 1;
      if (component != "_vendor" && component != "vendored") continue;
      const size_t end = f.find('/', start);
      std::string name = f.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (end == std::string::npos) {
        if (name.size() <= 3 || name.compare(name.size() - 3, 3, ".py") != 0 || name == "__init__.py") break;
        name.resize(name.size() - 3);
      }
      std::string path = f.substr(0, start) + name;
      if (out.empty() || out.back().path != path) {
        bool seen = false;
        for (const VendoredPackage& v : out) seen = seen || v.path == path;
        if (!seen) out.push_back({path, name});
      }
      break;
    }
  }
  return out;
}

bool ParsePythonEnvironment(const std::string& text, PythonEnvironment* env, std::string* error) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    *error = "the interpreter's answer is not JSON";
    return false;
  }
  env->executable = StringField(json, "executable");
  env->version = StringField(json, "version");
  env->stdlib = StringField(json, "stdlib");
  if (env->version.empty()) {
    *error = "the interpreter did not say its version";
    return false;
  }
  if (auto it = json.find("stdlib_files"); it != json.end()) env->stdlib_files = SafePaths(*it);
  env->distributions.clear();
  if (auto it = json.find("distributions"); it != json.end() && it->is_array()) {
    for (const nlohmann::json& d : *it) {
      if (!d.is_object()) continue;
      InstalledDistribution dist;
      dist.name = StringField(d, "name");
      dist.normalized = NormalizeDistributionName(dist.name);
      dist.version = StringField(d, "version");
      dist.location = StringField(d, "location");
      dist.files_from = StringField(d, "files_from");
      if (auto f = d.find("files"); f != d.end()) dist.files = SafePaths(*f);
      if (auto o = d.find("other_files"); o != d.end() && o->is_number_integer()) dist.other_files = o->get<int64_t>();
      if (dist.normalized.empty() || dist.location.empty()) continue;
      dist.vendored = FindVendoredPackages(dist.files);
      env->distributions.push_back(std::move(dist));
    }
  }
  std::stable_sort(
      env->distributions.begin(), env->distributions.end(),
      [](const InstalledDistribution& a, const InstalledDistribution& b) { return a.normalized < b.normalized; });
  // The first of a name wins, as for import.
  env->distributions.erase(std::unique(env->distributions.begin(), env->distributions.end(),
                                       [](const InstalledDistribution& a, const InstalledDistribution& b) {
                                         return a.normalized == b.normalized;
                                       }),
                           env->distributions.end());
  return true;
}

bool ProbePythonEnvironment(const std::string& interpreter, PythonEnvironment* env, std::string* error) {
  std::string out;
  if (!RunCapturing({interpreter, "-I", "-c", kProbeScript}, &out, error)) return false;
  env->interpreter = interpreter;
  if (!ParsePythonEnvironment(out, env, error)) {
    *error = interpreter + ": " + *error;
    return false;
  }
  return true;
}

}  // namespace errdex
