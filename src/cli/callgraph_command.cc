// `errdex callgraph SOURCE [--rev REV] [--format pycg|jsonl]`: the call graph of a directory or of a git
// revision, without a catalog (docs/callgraph.md). The pycg format is PyCG's JSON (an object mapping each
// caller to its sorted callees), so that the graph compares with PyCG's benchmarks directly.
#include <chrono>
#include <ctime>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/call_graph.h"
#include "cli/commands.h"
#include "python/python_extractor.h"
#include "source/source.h"

namespace errdex {

namespace {

void PrintPycg(const CallGraph& graph) {
  std::map<std::string, std::set<std::string>> out;
  for (const CallGraphNode& node : graph.nodes) {
    if (node.kind == "module" || node.kind == "function" || node.kind == "lambda") out[node.name];
  }
  for (const CallGraphEdge& edge : graph.edges) {
    if (edge.kind == "possible" || edge.kind == "argument") continue;
    out[graph.nodes[edge.caller].name].insert(graph.nodes[edge.callee].name);
    out[graph.nodes[edge.callee].name];
  }
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [caller, callees] : out) json[caller] = std::vector<std::string>(callees.begin(), callees.end());
  std::cout << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void PrintJsonLines(const CallGraph& graph) {
  auto dump = [](const nlohmann::json& j) {
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  };
  for (const CallGraphEdge& edge : graph.edges) {
    const CallGraphNode& from = graph.nodes[edge.caller];
    const CallGraphNode& to = graph.nodes[edge.callee];
    dump({{"type", "edge"},
          {"caller", from.name},
          {"callee", to.name},
          {"kind", edge.kind},
          {"path", from.path},
          {"line", edge.line},
          {"callee_kind", to.kind}});
  }
  for (const UnresolvedCall& call : graph.unresolved) {
    const CallGraphNode& from = graph.nodes[call.caller];
    dump(
        {{"type", "unresolved"}, {"caller", from.name}, {"name", call.name}, {"path", from.path}, {"line", call.line}});
  }
}

}  // namespace

void RegisterCallgraphCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("callgraph", "Print the call graph of a directory or git revision (no catalog)");
  struct Options {
    std::string source, rev, format = "pycg";
    bool timing = false;
    int max_runs = CallGraphOptions().max_runs;
    size_t max_values = CallGraphOptions().max_values;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("SOURCE", opts->source, "Directory or git repository")->required();
  cmd->add_option("--rev", opts->rev, "Git revision (default: the work tree, or HEAD of a bare repository)");
  cmd->add_option("--format", opts->format, "pycg (PyCG's JSON) or jsonl (edges with lines and kinds)")
      ->check(CLI::IsMember({"pycg", "jsonl"}));
  cmd->add_flag("--timing", opts->timing, "Print extraction and resolution times on stderr");
  cmd->add_option("--max-runs", opts->max_runs,
                  "Resolutions at most: each new one starts knowing the variables over the cap (default 4; the "
                  "index uses 1)")
      ->check(CLI::Range(1, 10));
  cmd->add_option("--max-values", opts->max_values, "Values per variable at most (default 24)")
      ->check(CLI::Range(1, 1000000));
  cmd->callback([opts] {
    std::string error;
    auto source = Source::Open(opts->source, opts->rev, &error);
    auto extractor = source ? PythonExtractor::Create(&error) : nullptr;
    std::vector<SourceEntry> entries;
    std::vector<SourceSkip> skips;
    if (!source || !extractor || !source->List(&entries, &skips, &error)) {
      std::cerr << "errdex: " << error << "\n";
      SetCommandExitCode(1);
      return;
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<FileFacts> facts(entries.size());
    std::vector<CallGraphFile> files;
    for (size_t i = 0; i < entries.size(); ++i) {
      std::string content;
      if (!source->Read(entries[i], &content, &error)) {
        std::cerr << "errdex: " << entries[i].path << ": " << error << "\n";
        continue;
      }
      facts[i] = extractor->Extract(content, ExtractOptions());
      files.push_back({entries[i].path, &facts[i]});
    }
    const auto extracted = std::chrono::steady_clock::now();
    const std::clock_t cpu_before = std::clock();
    CallGraphOptions options;
    options.max_runs = opts->max_runs;
    options.max_values = opts->max_values;
    CallGraph graph = BuildCallGraph(files, options);
    const double resolve_cpu_ms = 1000.0 * static_cast<double>(std::clock() - cpu_before) / CLOCKS_PER_SEC;
    const auto resolved = std::chrono::steady_clock::now();
    if (opts->timing) {
      auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
      std::cerr << "files " << files.size() << " extract_ms " << ms(extracted - started) << " resolve_ms "
                << ms(resolved - extracted) << " resolve_cpu_ms " << resolve_cpu_ms << " rounds " << graph.stats.rounds
                << " statements " << graph.stats.statements << " evaluations " << graph.stats.evaluations
                << (graph.stats.capped ? " capped" : "") << " runs " << graph.stats.runs << " saturated "
                << graph.stats.saturated << " edges " << graph.edges.size() << " unresolved " << graph.unresolved.size()
                << "\n";
    }
    if (opts->format == "pycg") {
      PrintPycg(graph);
    } else {
      PrintJsonLines(graph);
    }
  });
}

}  // namespace errdex
